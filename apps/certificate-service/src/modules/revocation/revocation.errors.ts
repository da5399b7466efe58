import { CertsvcError } from '../../app/errors/certsvc-error';

export type RevocationErrorCode =
  'certificate_not_found' | 'device_not_found' | 'ca_revoke_unsupported' | 'issuer_revoke_failed';

const MESSAGES: Record<RevocationErrorCode, string> = {
  certificate_not_found: 'no certificate with this serial, neither in the store nor at the issuer',
  device_not_found: 'no device with this serial',
  ca_revoke_unsupported:
    'the issuer configured for this purpose cannot revoke (SCEP); revoke the certificate at the CA by hand',
  issuer_revoke_failed: 'the issuer did not confirm the revocation; nothing changed, try again',
};

export class RevocationError extends CertsvcError<RevocationErrorCode> {
  constructor(code: RevocationErrorCode, message = MESSAGES[code]) {
    super(code, message);
  }
}
