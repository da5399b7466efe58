import { CertsvcError } from '../../app/errors/certsvc-error';

export type CaErrorCode = 'ca_unavailable';

const MESSAGES: Record<CaErrorCode, string> = {
  ca_unavailable: 'the certificate authority is not loaded yet',
};

export class CaError extends CertsvcError<CaErrorCode> {
  constructor(code: CaErrorCode, message = MESSAGES[code]) {
    super(code, message);
  }
}
