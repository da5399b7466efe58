import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { InputValidationError } from '@platform/errors';
import { unstorableTextFields } from './storable-text';

const CHECKED: ReadonlySet<ArgumentMetadata['type']> = new Set(['body', 'query', 'param']);

/**
 * Global pipe: a body field, query parameter or path parameter holding text PostgreSQL cannot
 * store is refused with 400 naming the field (`InputValidationError`). Runs before validation
 * so no validator or handler ever sees such a string.
 */
@Injectable()
export class StorableTextPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (!CHECKED.has(metadata.type)) return value;
    const fields = unstorableTextFields(value, metadata.data ?? '');
    if (fields.length === 0) return value;
    throw new InputValidationError(
      fields.map((f) => (f.field === '' ? { ...f, field: metadata.type } : f)),
    );
  }
}
