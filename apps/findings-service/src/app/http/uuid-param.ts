import { Param, PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { FindingsError } from '../errors/findings-error';

/** A path that names no resource: the same 404 `not_found` as an unknown route. */
export class PathNotFoundError extends FindingsError<'not_found'> {
  constructor() {
    super('not_found');
  }
}

/** The pipe behind `UuidParam` (exported so tests can find every UUID path parameter). */
export const UUID_SEGMENT: PipeTransform<unknown, string> = {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !isUUID(value, 'loose')) throw new PathNotFoundError();
    // PostgreSQL compares uuids case-insensitively, JavaScript strings do not: one spelling.
    return value.toLowerCase();
  },
};

/**
 * A path parameter that names an object by UUID. Any other value (a word, a malformed UUID)
 * is a path that does not exist: 404 `not_found`, checked after authentication. The value is
 * handed on in lower case.
 */
export function UuidParam(name: string): ParameterDecorator {
  return Param(name, UUID_SEGMENT);
}
