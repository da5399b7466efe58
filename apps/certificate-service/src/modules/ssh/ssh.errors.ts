import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type SshErrorCode =
  | 'ssh_ca_unavailable'
  | 'ssh_certificate_not_found'
  | 'ssh_principals_missing'
  | 'ssh_krl_unavailable';

/** The one error class of the SSH module (CA, certificates, KRL). */
export class SshError extends CertsvcError<SshErrorCode> {
  constructor(code: SshErrorCode, message = certsvcErrorMessage(code)) {
    super(code, message);
  }
}
