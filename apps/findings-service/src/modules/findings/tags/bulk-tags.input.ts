import { InputValidationError } from '@platform/errors';
import type { BulkTagsDto } from '../dto/tags.dto';
import { toBulkTarget } from '../list/bulk-selection';
import type { BulkTagsInput } from './finding-tags.service';

/**
 * The selection of a bulk-tags body (`toBulkTarget`: `finding_ids` alone, or `q` and/or
 * `filters`). At least one tag to add or remove.
 */
export function toBulkTagsInput(body: BulkTagsDto): BulkTagsInput {
  if ((body.add ?? []).length + (body.remove ?? []).length === 0) {
    throw new InputValidationError([
      { field: 'add', problems: ['add or remove at least one tag'] },
    ]);
  }
  const target = toBulkTarget(body);
  return 'ids' in target ? { findingIds: target.ids } : target;
}
