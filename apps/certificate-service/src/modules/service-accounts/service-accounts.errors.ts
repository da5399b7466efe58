import { CertsvcError } from '../../app/errors/certsvc-error';

export type ServiceAccountsErrorCode = 'service_account_not_found' | 'invalid_purposes';

const MESSAGES: Record<ServiceAccountsErrorCode, string> = {
  service_account_not_found: 'service account not found',
  invalid_purposes:
    'allowed_purposes must be a non-empty subset of wifi, user_mtls, ad_logon, ssh, k8s, vpn',
};

export class ServiceAccountsError extends CertsvcError<ServiceAccountsErrorCode> {
  constructor(code: ServiceAccountsErrorCode, message = MESSAGES[code]) {
    super(code, message);
  }
}
