import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type CertificatesErrorCode = 'certificate_not_found';

export class CertificatesError extends CertsvcError<CertificatesErrorCode> {
  constructor(code: CertificatesErrorCode, message = certsvcErrorMessage(code)) {
    super(code, message);
  }
}
