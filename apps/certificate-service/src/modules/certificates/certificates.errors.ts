import { CertsvcError } from '../../app/errors/certsvc-error';

export type CertificatesErrorCode = 'certificate_not_found';

const MESSAGES: Record<CertificatesErrorCode, string> = {
  certificate_not_found: 'no certificate with this serial',
};

export class CertificatesError extends CertsvcError<CertificatesErrorCode> {
  constructor(code: CertificatesErrorCode, message = MESSAGES[code]) {
    super(code, message);
  }
}
