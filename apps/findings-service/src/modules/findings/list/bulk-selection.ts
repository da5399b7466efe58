import { InputValidationError } from '@platform/errors';
import type { VisibleScope } from '../../projects/visibility.service';
import { toFindingFilters, type FindingFiltersDto } from '../dto/finding-filters.dto';
import { FindingsApiError } from '../findings-api.errors';
import { parseQuery } from '../query';
import type { FindingSelection } from './finding-filters';
import { FINDINGS_QUERY_CATALOG } from './finding-query-catalog';
import { scopeSql, selectionSql, type SqlParams } from './finding-selection.sql';

/** Which findings a bulk operation targets: explicit ids, or a selection (filters and query). */
export type BulkTarget = { ids: string[] } | { selection: FindingSelection };

/** The selection fields of a bulk body (bulk-tags, bulk-status): same names as the list. */
export interface BulkSelectionBody {
  finding_ids?: string[];
  q?: string;
  filters?: FindingFiltersDto;
}

/**
 * `finding_ids` alone, or `q` and/or `filters` (a syntax error in `q` is a 400 and nothing is
 * changed); neither: `bulk_selection_required`.
 */
export function toBulkTarget(body: BulkSelectionBody): BulkTarget {
  const bySelection = body.q !== undefined || body.filters !== undefined;
  if (body.finding_ids && bySelection) {
    throw new InputValidationError([
      { field: 'finding_ids', problems: ['give finding_ids or q/filters, not both'] },
    ]);
  }
  if (body.finding_ids) return { ids: body.finding_ids };
  if (!bySelection) throw new FindingsApiError('bulk_selection_required');
  const query = body.q === undefined ? undefined : parseQuery(body.q, FINDINGS_QUERY_CATALOG);
  const filters = toFindingFilters(body.filters ?? {});
  if (!query && Object.values(filters).every((v) => v === undefined)) {
    throw new FindingsApiError('bulk_selection_required');
  }
  return { selection: { filters, query } };
}

/** WHERE conditions of a bulk target over `findings f`, limited to the caller's scope. */
export function bulkTargetSql(
  scope: VisibleScope,
  target: BulkTarget,
  params: SqlParams,
): string[] {
  const where = [scopeSql(scope, params)];
  // Named ids skip merged findings too (selectionSql does for the rest; docs/findings-service/merge.md).
  if ('ids' in target) {
    where.push(`f.id = ANY(${params.add(target.ids)}::uuid[])`, 'f.merged_into_id IS NULL');
  } else where.push(...selectionSql(target.selection, params));
  return where;
}
