import type { ValidationError } from 'class-validator';
import { FieldProblem, InputValidationError } from './domain-error';

/** Flattens nested class-validator errors into `field.path: problems`. */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) out.push({ field, problems: Object.values(error.constraints) });
    if (error.children?.length) out.push(...flattenValidationErrors(error.children, field));
  }
  return out;
}

/** `exceptionFactory` for Nest's ValidationPipe: validation failures become domain errors. */
export function validationExceptionFactory(errors: ValidationError[]): InputValidationError {
  return new InputValidationError(flattenValidationErrors(errors));
}
