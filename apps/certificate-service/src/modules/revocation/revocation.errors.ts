import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type RevocationErrorCode =
  'certificate_not_found' | 'device_not_found' | 'ca_revoke_unsupported' | 'issuer_revoke_failed';

export class RevocationError extends CertsvcError<RevocationErrorCode> {
  constructor(code: RevocationErrorCode, message = certsvcErrorMessage(code, 'revocation')) {
    super(code, message);
  }
}
