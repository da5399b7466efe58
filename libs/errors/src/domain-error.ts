/**
 * Base of every domain error. Services throw subclasses (one per module) carrying a stable
 * string code; the service's global filter maps the code to an HTTP status and envelope.
 * Services never throw HTTP exceptions.
 */
export abstract class DomainError extends Error {
  protected constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A field-level problem reported by validation. */
export interface FieldProblem {
  field: string;
  problems: string[];
}

/** Raised for malformed input (DTO validation, unparsable bodies). */
export class InputValidationError extends DomainError {
  constructor(
    readonly fields: FieldProblem[],
    message = 'request validation failed',
  ) {
    super('validation_failed', message, { fields });
  }
}
