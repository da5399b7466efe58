import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import type { FindingAction } from '../action-log/finding-action';
import { ActionLogRepository } from '../action-log/action-log.repository';
import { VisibilityService } from '../projects/visibility.service';
import type { FindingView } from './finding-view';
import { FindingsApiError } from './findings-api.errors';
import { FindingsRepository } from './findings.repository';
import { decodeCursor, encodeCursor } from './list/finding-cursor';
import type { FindingFilters } from './list/finding-filters';
import { FINDINGS_QUERY_CATALOG } from './list/finding-query-catalog';
import type { FindingSortKey, SortOrder } from './list/finding-sort';
import { parseQuery } from './query';
import { FindingSearchPlanner } from './search/finding-search-planner';

export interface FindingListInput {
  filters: FindingFilters;
  q?: string;
  sort: FindingSortKey;
  order: SortOrder;
  cursor?: string;
  limit: number;
}

export interface FindingPage {
  items: FindingView[];
  nextCursor: string | null;
}

/**
 * Reading findings. Visibility is part of every statement (never a post-filter), so an
 * inaccessible project and a missing one look the same: empty list, 404 for one finding.
 */
@Injectable()
export class FindingsQueryService {
  constructor(
    private readonly findings: FindingsRepository,
    private readonly actionLog: ActionLogRepository,
    private readonly visibility: VisibilityService,
    private readonly searchPlanner: FindingSearchPlanner,
  ) {}

  async list(access: AccessContext, input: FindingListInput): Promise<FindingPage> {
    // A syntax error throws QuerySyntaxError (400) before anything runs.
    const query = input.q === undefined ? undefined : parseQuery(input.q, FINDINGS_QUERY_CATALOG);
    const cursor =
      input.cursor === undefined ? undefined : decodeCursor(input.cursor, input.sort, input.order);
    if (input.cursor !== undefined && !cursor) throw new FindingsApiError('finding_cursor_invalid');
    const rows = await this.findings.list({
      scope: this.visibility.scope(access, 'read_findings'),
      filters: input.filters,
      query,
      // Rare free-text terms through the search index (same result, docs/findings-service/findings-api.md).
      indexedSearch: await this.searchPlanner.indexedTerms({ filters: input.filters, query }),
      sort: input.sort,
      order: input.order,
      cursor,
      fetch: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > input.limit && last
        ? encodeCursor({
            sort: input.sort,
            order: input.order,
            value: sortValueOf(input.sort, last.sortValue),
            id: last.finding.id,
          })
        : null;
    return { items: page.map((r) => r.finding), nextCursor };
  }

  /** The finding when the caller may read it; `finding_not_found` otherwise. */
  async get(access: AccessContext, id: string): Promise<FindingView> {
    const finding = await this.findings.findById(id);
    if (!finding || !access.can('read_findings', targetOf(finding))) {
      throw new FindingsApiError('finding_not_found');
    }
    return finding;
  }

  /** The entry behind the finding's current status (status_decision), or null. */
  statusDecision(finding: FindingView): Promise<FindingAction | null> {
    return this.actionLog.statusDecision(finding.id, finding.status);
  }

  async actions(
    access: AccessContext,
    id: string,
    page: { limit: number; after?: string },
  ): Promise<FindingAction[]> {
    await this.get(access, id);
    return this.actionLog.listForFinding(id, page.limit, page.after);
  }
}

export function targetOf(f: Pick<FindingView, 'projectId' | 'productId'>): {
  projectId: string;
  productId: string;
} {
  return { projectId: f.projectId, productId: f.productId };
}

function sortValueOf(sort: FindingSortKey, value: string | null): string | number | null {
  if (sort === 'id' || value === null) return null;
  return sort === 'severity' || sort === 'status' ? Number(value) : value;
}
