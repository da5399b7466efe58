import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type IssuerProfilesErrorCode =
  | 'issuer_purpose_invalid'
  | 'issuer_kind_invalid'
  | 'issuer_url_invalid'
  | 'issuer_settings_invalid'
  | 'issuer_secret_missing'
  | 'issuer_secret_key_missing'
  | 'issuer_secret_unreadable';

/**
 * The catalogue message, followed by what exactly is wrong (the field and the problem; never a
 * value the client sent), since the envelope carries `details` only for `invalid_request`.
 */
export class IssuerProfilesError extends CertsvcError<IssuerProfilesErrorCode> {
  constructor(code: IssuerProfilesErrorCode, details?: Record<string, unknown>) {
    const precise = details === undefined ? '' : precision(details);
    super(
      code,
      precise ? `${certsvcErrorMessage(code)} (${precise})` : certsvcErrorMessage(code),
      details,
    );
  }
}

function precision(details: Record<string, unknown>): string {
  const parts = [details.field, details.reason, details.problem]
    .filter((part): part is string => typeof part === 'string')
    .map((part) => part.slice(0, 300));
  if (Array.isArray(details.fields)) parts.push(`send ${details.fields.join(', ')}`);
  return parts.join(': ');
}
