import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TicketBackfillMode } from './ticket-backfill.job';

/** What a backfill walks: the project's findings without a ticket, filtered. */
export interface BackfillSelection {
  projectId: string;
  statuses: string[];
  /** Severities at or above min_severity (all five without one). */
  severities: string[];
}

export interface BackfillCounts {
  total: number;
  done: number;
  linked: number;
  created: number;
  skipped: number;
  failed: number;
}

export interface BackfillRow extends BackfillCounts {
  id: string;
  projectId: string;
  mode: TicketBackfillMode;
  state: string;
  cursor: string | null;
}

const UNIQUE_VIOLATION = '23505';

/** `ticket_backfills` and the pages of findings a backfill walks. */
@Injectable()
export class TicketBackfillsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A running backfill row; false when the project already has one running (partial unique). */
  async start(row: {
    id: string;
    projectId: string;
    mode: TicketBackfillMode;
    startedBy: string | null;
  }): Promise<boolean> {
    try {
      await this.dataSource.query(
        `INSERT INTO ticket_backfills (id, project_id, mode, state, started_by)
         VALUES ($1, $2, $3, 'running', $4)`,
        [row.id, row.projectId, row.mode, row.startedBy],
      );
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return false;
      throw error;
    }
  }

  /**
   * Stops a running backfill: the row becomes `cancelled`, which its walk checks before each
   * page (a queued job finds it so when it starts and ends at once). False when not running.
   */
  async cancel(id: string): Promise<boolean> {
    const [, count] = (await this.dataSource.query(
      `UPDATE ticket_backfills SET state = 'cancelled', finished_at = now()
        WHERE id = $1 AND state = 'running'`,
      [id],
    )) as [unknown, number];
    return count > 0;
  }

  /**
   * A failed or cancelled backfill running again from its cursor: `resumed`; `running` when the
   * project already has one (the partial unique index); `not_resumable` in any other state.
   */
  async resume(id: string): Promise<'resumed' | 'running' | 'not_resumable'> {
    try {
      const [, count] = (await this.dataSource.query(
        `UPDATE ticket_backfills SET state = 'running', finished_at = NULL
          WHERE id = $1 AND state IN ('failed', 'cancelled')`,
        [id],
      )) as [unknown, number];
      return count > 0 ? 'resumed' : 'not_resumable';
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'running';
      throw error;
    }
  }

  /** Removes a row whose job could not be queued (nothing ran). */
  async discard(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM ticket_backfills WHERE id = $1`, [id]);
  }

  async get(id: string): Promise<BackfillRow | null> {
    const rows = (await this.dataSource.query(`SELECT * FROM ticket_backfills WHERE id = $1`, [
      id,
    ])) as Record<string, unknown>[];
    const r = rows[0];
    if (!r) return null;
    return {
      id: String(r['id']),
      projectId: String(r['project_id']),
      mode: r['mode'] as TicketBackfillMode,
      state: String(r['state']),
      cursor: (r['cursor'] as string | null) ?? null,
      total: Number(r['total']),
      done: Number(r['done']),
      linked: Number(r['linked']),
      created: Number(r['created']),
      skipped: Number(r['skipped']),
      failed: Number(r['failed']),
    };
  }

  /** The selection's findings still without a ticket after `cursor`, in id order. */
  async page(selection: BackfillSelection, cursor: string | null, size: number): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT f.id FROM findings f
        WHERE f.project_id = $1 AND f.status = ANY($2::text[]) AND f.severity = ANY($3::text[])
          AND ($4::uuid IS NULL OR f.id > $4::uuid)
          AND NOT EXISTS (SELECT 1 FROM finding_tickets ft WHERE ft.finding_id = f.id)
        ORDER BY f.id
        LIMIT $5`,
      [selection.projectId, selection.statuses, selection.severities, cursor, size],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** How many findings the selection has after `cursor` (the remaining work). */
  async remaining(selection: BackfillSelection, cursor: string | null): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM findings f
        WHERE f.project_id = $1 AND f.status = ANY($2::text[]) AND f.severity = ANY($3::text[])
          AND ($4::uuid IS NULL OR f.id > $4::uuid)
          AND NOT EXISTS (SELECT 1 FROM finding_tickets ft WHERE ft.finding_id = f.id)`,
      [selection.projectId, selection.statuses, selection.severities, cursor],
    )) as { n: number }[];
    return Number(rows[0]?.n ?? 0);
  }

  /** The counters and the cursor after a page (a restarted job resumes after `cursor`). */
  async progress(id: string, counts: BackfillCounts, cursor: string | null): Promise<void> {
    await this.dataSource.query(
      `UPDATE ticket_backfills SET total = $2, done = $3, linked = $4, created = $5, skipped = $6,
              failed = $7, cursor = $8 WHERE id = $1`,
      [
        id,
        counts.total,
        counts.done,
        counts.linked,
        counts.created,
        counts.skipped,
        counts.failed,
        cursor,
      ],
    );
  }

  async finish(id: string, state: 'completed' | 'failed' | 'cancelled'): Promise<void> {
    await this.dataSource.query(
      `UPDATE ticket_backfills SET state = $2, finished_at = now() WHERE id = $1`,
      [id, state],
    );
  }
}
