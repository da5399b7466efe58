import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';

export interface QueryIntOptions {
  min: number;
  max: number;
  default?: number;
  description?: string;
}

// Plain decimal digits only: no exponent, fraction, sign, blanks or hex; 16 digits keep any
// accepted value an exact JavaScript integer.
const DECIMAL_INTEGER = /^-?\d{1,16}$/;

/** A query string value as a number when it is a plain decimal integer; otherwise unchanged. */
export function toQueryInt(value: unknown): unknown {
  return typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value;
}

export function isIntInRange(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
}

/**
 * An optional integer query parameter bounded to `min..max`. Exponents (`1e20`), fractions,
 * signs, repeated parameters and values out of range are refused with 400 naming the field;
 * the OpenAPI document shows the bounds.
 */
export function QueryInt(options: QueryIntOptions): PropertyDecorator {
  const { min, max } = options;
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: min,
      maximum: max,
      default: options.default,
      description: options.description,
    }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => toQueryInt(value)),
    ValidateBy({
      name: 'isIntInRange',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => isIntInRange(value, min, max),
        defaultMessage: () => `$property must be a whole number from ${min} to ${max}`,
      },
    }),
  );
}
