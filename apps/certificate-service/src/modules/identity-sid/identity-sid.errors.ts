import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type IdentitySidErrorCode =
  | 'identity_not_found'
  | 'identity_directory_not_configured'
  | 'identity_directory_unavailable'
  | 'identity_directory_settings_invalid'
  | 'identity_directory_secret_key_missing'
  | 'identity_directory_secret_unreadable'
  | 'rate_limited';

/**
 * Refusals of the identity-SID look-up and its directory settings. The settings refusals say
 * which field is wrong (never the value sent); the look-up refusals never carry the
 * directory's own error text (server log only).
 */
export class IdentitySidError extends CertsvcError<IdentitySidErrorCode> {
  constructor(code: IdentitySidErrorCode, details?: Record<string, unknown>) {
    const field = typeof details?.field === 'string' ? details.field : undefined;
    const problem = typeof details?.problem === 'string' ? details.problem : undefined;
    const precise = [field, problem].filter((part) => part !== undefined).join(': ');
    super(
      code,
      precise ? `${certsvcErrorMessage(code)} (${precise})` : certsvcErrorMessage(code),
      details,
    );
  }
}
