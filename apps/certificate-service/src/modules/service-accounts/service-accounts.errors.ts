import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type ServiceAccountsErrorCode = 'service_account_not_found' | 'invalid_purposes';

export class ServiceAccountsError extends CertsvcError<ServiceAccountsErrorCode> {
  constructor(code: ServiceAccountsErrorCode, message = certsvcErrorMessage(code)) {
    super(code, message);
  }
}
