import { DomainError } from '@platform/errors';
import { ErrorCode } from './error-codes';
import { ERROR_MESSAGES } from './error-messages';

/**
 * Base of the findings service's module errors: the code must exist in the status map and
 * the catalog, so a module cannot invent an unmapped code.
 */
export abstract class FindingsError<C extends ErrorCode = ErrorCode> extends DomainError {
  declare readonly code: C;

  protected constructor(code: C, details?: Record<string, unknown>) {
    super(code, ERROR_MESSAGES[code].en, details);
  }
}
