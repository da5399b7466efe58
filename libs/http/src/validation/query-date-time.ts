import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, isISO8601, ValidateBy } from 'class-validator';

// Four-digit years only: JavaScript dates reach ±275 760 years, PostgreSQL timestamps do not.
const FOUR_DIGIT_YEAR = /^\d{4}-\d{2}-\d{2}/;

/** A query string value as a `Date` when it is an ISO 8601 date(-time) of years 0000-9999. */
export function toQueryDateTime(value: unknown): unknown {
  if (typeof value !== 'string' || !FOUR_DIGIT_YEAR.test(value)) return value;
  if (!isISO8601(value, { strict: true, strictSeparator: true })) return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date;
}

/**
 * An optional ISO 8601 date-time query parameter (years 0000-9999), handed over as a `Date`;
 * anything else is refused with 400 naming the field.
 */
export function QueryDateTime(options: { description?: string } = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date-time', description: options.description }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => toQueryDateTime(value)),
    ValidateBy({
      name: 'isQueryDateTime',
      validator: {
        validate: (value: unknown) => value instanceof Date,
        defaultMessage: () => `$property must be an ISO 8601 date-time`,
      },
    }),
  );
}
