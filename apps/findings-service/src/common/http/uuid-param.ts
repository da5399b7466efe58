import { Param, ParseUUIDPipe } from '@nestjs/common';
import { InputValidationError } from '@platform/errors';

/** A path parameter that must be a UUID (400 validation_failed otherwise). */
export function UuidParam(name: string): ParameterDecorator {
  return Param(
    name,
    new ParseUUIDPipe({
      exceptionFactory: () =>
        new InputValidationError([{ field: name, problems: [`${name} must be a UUID`] }]),
    }),
  );
}
