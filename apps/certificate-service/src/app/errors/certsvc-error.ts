import { DomainError, type FieldProblem } from '@platform/errors';
import type { CertsvcErrorCode } from './error-status';

/**
 * Base of the service's domain errors: a code from the status table and a message for the
 * client. Modules subclass it with their own code subset (one error class per module).
 */
export abstract class CertsvcError<
  C extends CertsvcErrorCode = CertsvcErrorCode,
> extends DomainError {
  declare readonly code: C;

  protected constructor(code: C, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }
}

/** Input that failed validation: 400 `invalid_request` with the field problems. */
export class InvalidRequestError extends CertsvcError<'invalid_request'> {
  constructor(
    readonly fields: FieldProblem[],
    message = 'request validation failed',
  ) {
    super('invalid_request', message);
  }
}
