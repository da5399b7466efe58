import { CertsvcError } from '../../app/errors/certsvc-error';

export type SshErrorCode =
  | 'ssh_ca_unavailable'
  | 'ssh_certificate_not_found'
  | 'ssh_principals_missing'
  | 'ssh_krl_unavailable';

const MESSAGES: Record<SshErrorCode, string> = {
  ssh_ca_unavailable: 'the SSH certificate authority is not loaded',
  ssh_certificate_not_found: 'no SSH certificate with this serial',
  ssh_principals_missing:
    'the device has no owner with a valid login name and no principal alias: the certificate would name no account',
  ssh_krl_unavailable: 'the SSH key revocation list could not be built; try again',
};

/** The one error class of the SSH module (CA, certificates, KRL). */
export class SshError extends CertsvcError<SshErrorCode> {
  constructor(code: SshErrorCode, message = MESSAGES[code]) {
    super(code, message);
  }
}
