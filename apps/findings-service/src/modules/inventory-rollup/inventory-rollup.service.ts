import { Injectable } from '@nestjs/common';
import { InputValidationError } from '@platform/errors';
import type { AccessContext } from '../../app/access/access-context';
import { VisibilityService } from '../projects/visibility.service';
import { TicketsService } from '../tickets/tickets.service';
import type { TicketView } from '../tickets/tickets.repository';
import { FindingsApiError } from '../findings/findings-api.errors';
import {
  FindingsQueryService,
  type FindingListInput,
  type FindingPage,
} from '../findings/findings-query.service';
import type { RollupAxis } from '../findings/groups/group-axis';
import { BulkStatusService } from '../findings/lifecycle/bulk-status.service';
import type { StatusChangeCounts } from '../findings/lifecycle/status-change.sql';
import type { FindingFilters, FindingSelection } from '../findings/list/finding-filters';
import { FINDINGS_QUERY_CATALOG } from '../findings/list/finding-query-catalog';
import type { SortOrder } from '../findings/list/finding-sort';
import { parseQuery } from '../findings/query';
import { InventoryRollupRepository, type RollupRow } from './inventory-rollup.repository';
import type { RollupSortKey } from './inventory-rollup.sql';
import { decodeRollupCursor, encodeRollupCursor } from './rollup-cursor';

/** Largest row "one task for the group" links (as POST /findings/ticket/bulk's finding_ids). */
export const MAX_ROLLUP_TICKET_FINDINGS = 500;

export interface RollupInput {
  axis: RollupAxis;
  filters: FindingFilters;
  q?: string;
  sort: RollupSortKey;
  order: SortOrder;
  cursor?: string;
  limit: number;
}

/** One row of the roll-up: the axis value and what the selection holds under it. */
export interface RollupRowInput {
  axis: RollupAxis;
  key: string;
  filters: FindingFilters;
  q?: string;
}

export type RollupAction =
  | {
      kind: 'status';
      status: 'risk_accepted' | 'wont_fix';
      riskAcceptedUntil?: Date;
      justification?: string;
    }
  | { kind: 'ticket'; title?: string; target?: string };

export type RollupActionResult =
  | { kind: 'status'; counts: StatusChangeCounts }
  | { kind: 'ticket'; ticket: TicketView; linked: string[]; skipped: string[] };

/**
 * Inventory roll-ups (docs/findings-service/groups-and-rollups.md): the list's selection
 * grouped by package, host or CVE; the members of a row; a bulk action on a row. Every read
 * is the list's visibility; every change goes through the owning path (bulk status, tickets).
 */
@Injectable()
export class InventoryRollupService {
  constructor(
    private readonly repository: InventoryRollupRepository,
    private readonly findings: FindingsQueryService,
    private readonly bulkStatus: BulkStatusService,
    private readonly tickets: TicketsService,
    private readonly visibility: VisibilityService,
  ) {}

  async rows(
    access: AccessContext,
    input: RollupInput,
  ): Promise<{ items: RollupRow[]; nextCursor: string | null }> {
    const query = input.q === undefined ? undefined : parseQuery(input.q, FINDINGS_QUERY_CATALOG);
    const cursor =
      input.cursor === undefined
        ? undefined
        : decodeRollupCursor(input.cursor, input.axis, input.sort, input.order);
    if (input.cursor !== undefined && !cursor) throw new FindingsApiError('finding_cursor_invalid');
    const rows = await this.repository.rows({
      scope: this.visibility.scope(access, 'read_findings'),
      axis: input.axis,
      filters: input.filters,
      query,
      sort: input.sort,
      order: input.order,
      cursor,
      fetch: input.limit + 1,
    });
    const items = rows.slice(0, input.limit);
    const last = items[items.length - 1];
    const nextCursor =
      rows.length > input.limit && last
        ? encodeRollupCursor({
            axis: input.axis,
            sort: input.sort,
            order: input.order,
            value: input.sort === 'key' ? null : sortValue(last, input.sort),
            key: last.key,
          })
        : null;
    return { items, nextCursor };
  }

  /** The findings of one row, paged as the list. */
  members(
    access: AccessContext,
    row: Omit<RollupRowInput, 'filters' | 'q'>,
    input: FindingListInput,
  ): Promise<FindingPage> {
    return this.findings.list(access, {
      ...input,
      filters: { ...input.filters, axis: { axis: row.axis, key: row.key } },
    });
  }

  async act(
    access: AccessContext,
    row: RollupRowInput,
    action: RollupAction,
  ): Promise<RollupActionResult> {
    const selection: FindingSelection = {
      filters: { ...row.filters, axis: { axis: row.axis, key: row.key } },
      query: row.q === undefined ? undefined : parseQuery(row.q, FINDINGS_QUERY_CATALOG),
    };
    if (action.kind === 'status') {
      const counts = await this.bulkStatus.change(access, {
        target: { selection },
        status: action.status,
        riskAcceptedUntil: action.riskAcceptedUntil,
        justification: action.justification,
      });
      return { kind: 'status', counts };
    }
    return { kind: 'ticket', ...(await this.oneTask(access, row, selection, action)) };
  }

  /**
   * One task for the row's writable findings, through the project's ticket provider (422
   * ticket_provider_not_configured without one). A task lives in one project's tracker: a
   * row spanning several projects is refused (narrow it with filters.project_id).
   */
  private async oneTask(
    access: AccessContext,
    row: RollupRowInput,
    selection: FindingSelection,
    action: Extract<RollupAction, { kind: 'ticket' }>,
  ): Promise<{ ticket: TicketView; linked: string[]; skipped: string[] }> {
    const members = await this.repository.memberIds(
      this.visibility.scope(access, 'write_findings'),
      selection,
      MAX_ROLLUP_TICKET_FINDINGS + 1,
    );
    if (members.length === 0) {
      throw new InputValidationError([
        { field: 'key', problems: ['the row holds no finding you may change'] },
      ]);
    }
    if (members.length > MAX_ROLLUP_TICKET_FINDINGS) {
      throw new FindingsApiError('bulk_selection_too_large', { max: MAX_ROLLUP_TICKET_FINDINGS });
    }
    const projects = new Set(members.map((m) => m.projectId));
    if (projects.size > 1) {
      throw new InputValidationError([
        {
          field: 'filters.project_id',
          problems: [
            `the row spans ${projects.size} projects: a task belongs to one, narrow the row to it`,
          ],
        },
      ]);
    }
    return this.tickets.bulk(access, {
      findingIds: members.map((m) => m.id),
      title: action.title ?? `${row.axis}: ${row.key}`.slice(0, 255),
      target: action.target,
      skipTicketed: true,
    });
  }
}

function sortValue(row: RollupRow, sort: Exclude<RollupSortKey, 'key'>): number {
  if (sort === 'total') return row.total;
  return row.bySeverity[sort.toUpperCase() as keyof RollupRow['bySeverity']];
}
