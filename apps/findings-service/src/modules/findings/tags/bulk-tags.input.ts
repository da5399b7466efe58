import { InputValidationError } from '@platform/errors';
import { toFindingFilters } from '../dto/finding-filters.dto';
import type { BulkTagsDto } from '../dto/tags.dto';
import { FINDINGS_QUERY_CATALOG } from '../list/finding-query-catalog';
import { parseQuery } from '../query';
import { FindingsApiError } from '../findings-api.errors';
import type { BulkTagsInput } from './finding-tags.service';

/**
 * The selection of a bulk-tags body: `finding_ids` alone, or `q` and/or `filters` (a syntax
 * error in `q` is a 400 and nothing is changed). At least one tag to add or remove.
 */
export function toBulkTagsInput(body: BulkTagsDto): BulkTagsInput {
  if ((body.add ?? []).length + (body.remove ?? []).length === 0) {
    throw new InputValidationError([
      { field: 'add', problems: ['add or remove at least one tag'] },
    ]);
  }
  const bySelection = body.q !== undefined || body.filters !== undefined;
  if (body.finding_ids && bySelection) {
    throw new InputValidationError([
      { field: 'finding_ids', problems: ['give finding_ids or q/filters, not both'] },
    ]);
  }
  if (body.finding_ids) return { findingIds: body.finding_ids };
  if (!bySelection) throw new FindingsApiError('bulk_selection_required');
  const query = body.q === undefined ? undefined : parseQuery(body.q, FINDINGS_QUERY_CATALOG);
  const filters = toFindingFilters(body.filters ?? {});
  if (!query && Object.values(filters).every((v) => v === undefined)) {
    throw new FindingsApiError('bulk_selection_required');
  }
  return { selection: { filters, query } };
}
