import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import { VisibilityService } from '../projects/visibility.service';
import { FindingsApiError } from './findings-api.errors';
import { FindingGroupRow, FindingsRepository } from './findings.repository';
import { decodeGroupCursor, encodeGroupCursor } from './list/finding-group-cursor';
import type { FindingFilters } from './list/finding-filters';
import type { FindingGroupKey } from './list/finding-groups.sql';
import { FINDINGS_QUERY_CATALOG } from './list/finding-query-catalog';
import { parseQuery } from './query';

/** Up to this many matching findings the count is exact. */
export const EXACT_COUNT_CAP = 10_000;

export interface FindingSelectionInput {
  filters: FindingFilters;
  q?: string;
}

export interface FindingGroupPage {
  by: FindingGroupKey;
  items: FindingGroupRow[];
  nextCursor: string | null;
}

/**
 * The list's selection seen whole: its total (exact up to 10 000, else the planner's
 * estimate) and its groups by rule or file. Same visibility, filters and query as the list.
 */
@Injectable()
export class FindingsOverviewService {
  constructor(
    private readonly findings: FindingsRepository,
    private readonly visibility: VisibilityService,
  ) {}

  count(
    access: AccessContext,
    input: FindingSelectionInput,
  ): Promise<{ count: number; exact: boolean }> {
    return this.findings.count(
      { scope: this.visibility.scope(access, 'read_findings'), ...this.selection(input) },
      EXACT_COUNT_CAP,
    );
  }

  async groups(
    access: AccessContext,
    input: FindingSelectionInput & { by: FindingGroupKey; cursor?: string; limit: number },
  ): Promise<FindingGroupPage> {
    const selection = this.selection(input);
    const cursor =
      input.cursor === undefined ? undefined : decodeGroupCursor(input.cursor, input.by);
    if (input.cursor !== undefined && !cursor) throw new FindingsApiError('finding_cursor_invalid');
    const rows = await this.findings.groups({
      scope: this.visibility.scope(access, 'read_findings'),
      ...selection,
      by: input.by,
      cursor,
      fetch: input.limit + 1,
    });
    const items = rows.slice(0, input.limit);
    const last = items[items.length - 1];
    return {
      by: input.by,
      items,
      nextCursor:
        rows.length > input.limit && last
          ? encodeGroupCursor({ by: input.by, count: last.count, key: last.key })
          : null,
    };
  }

  /** A syntax error throws QuerySyntaxError (400) before anything runs. */
  private selection(input: FindingSelectionInput) {
    return {
      filters: input.filters,
      query: input.q === undefined ? undefined : parseQuery(input.q, FINDINGS_QUERY_CATALOG),
    };
  }
}
