import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type CaErrorCode = 'ca_unavailable';

export class CaError extends CertsvcError<CaErrorCode> {
  constructor(code: CaErrorCode, message = certsvcErrorMessage(code)) {
    super(code, message);
  }
}
