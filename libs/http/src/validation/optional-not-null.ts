import { applyDecorators } from '@nestjs/common';
import { ValidateBy, ValidateIf } from 'class-validator';

/**
 * An optional field that is not nullable: absent (`undefined`) skips its validators, `null`
 * is refused (400 naming the field). Use it instead of `@IsOptional()`, which lets `null`
 * through, on every field whose column is NOT NULL or whose domain has no "unset".
 */
export function OptionalNotNull(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== undefined),
    ValidateBy({
      name: 'isNotNull',
      validator: {
        validate: (value: unknown) => value !== null,
        defaultMessage: () => `$property must not be null`,
      },
    }),
  );
}
