import { FindingsError } from '../../app/errors/findings-error';

export type ServiceAccountsErrorCode =
  | 'service_account_not_found'
  | 'service_account_revoked'
  | 'permission_not_found'
  | 'permission_level_invalid'
  | 'permission_scope_invalid'
  | 'permission_expiry_required'
  | 'permission_expiry_in_past';

export class ServiceAccountsError extends FindingsError<ServiceAccountsErrorCode> {
  constructor(code: ServiceAccountsErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
