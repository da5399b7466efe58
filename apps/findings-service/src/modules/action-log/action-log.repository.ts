import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ActionPerson, ActorType, FindingAction, FindingActionName } from './finding-action';

const ENTRY_COLUMNS = `a.id::text AS id, a.finding_id, a.actor_type, a.actor_id, a.actor_label,
  a.action, a.from_value, a.to_value, a.at, u.display_name AS actor_name`;
const ENTRY_FROM = `finding_actions a
  LEFT JOIN users u ON a.actor_type = 'user' AND u.id = a.actor_id`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads a finding's action log, oldest first, as a history: people are resolved when read (the
 * display name of a user actor; `assignee` beside every `assignee_id` of `from`/`to`).
 */
@Injectable()
export class ActionLogRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Entries after `afterId` (keyset on the entry id), at most `limit`. */
  async listForFinding(
    findingId: string,
    limit: number,
    afterId?: string,
  ): Promise<FindingAction[]> {
    const params: unknown[] = [findingId, limit];
    if (afterId !== undefined) params.push(afterId);
    const rows = (await this.dataSource.query(
      `SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM}
        WHERE a.finding_id = $1 ${afterId === undefined ? '' : 'AND a.id > $3::bigint'}
        ORDER BY a.id LIMIT $2`,
      params,
    )) as Record<string, unknown>[];
    return this.withAssignees(rows.map(toAction));
  }

  /**
   * The entry that put the finding into `status` or last changed that status's fields (the
   * latest status entry, when it names that status); null when there is none.
   */
  async statusDecision(findingId: string, status: string): Promise<FindingAction | null> {
    const rows = (await this.dataSource.query(
      `SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM}
        WHERE a.finding_id = $1 AND a.action IN ('status_changed', 'triage_updated', 'renewed')
          AND a.to_value ? 'status'
        ORDER BY a.id DESC LIMIT 1`,
      [findingId],
    )) as Record<string, unknown>[];
    const entry = rows[0] ? toAction(rows[0]) : null;
    return entry && entry.to?.['status'] === status ? entry : null;
  }

  private async withAssignees(entries: FindingAction[]): Promise<FindingAction[]> {
    const ids = new Set<string>();
    for (const e of entries) {
      for (const side of [e.from, e.to]) {
        const id = side?.['assignee_id'];
        if (typeof id === 'string' && UUID.test(id)) ids.add(id.toLowerCase());
      }
    }
    if (ids.size === 0) return entries;
    const users = (await this.dataSource.query(
      `SELECT id, email, display_name FROM users WHERE id = ANY($1::uuid[])`,
      [[...ids]],
    )) as { id: string; email: string; display_name: string | null }[];
    const byId = new Map<string, ActionPerson>(
      users.map((u) => [u.id, { id: u.id, email: u.email, displayName: u.display_name ?? '' }]),
    );
    const resolve = (side: Record<string, unknown> | null) => {
      if (!side || !('assignee_id' in side)) return side;
      const id = side['assignee_id'];
      const person = typeof id === 'string' ? byId.get(id.toLowerCase()) : undefined;
      return {
        ...side,
        assignee: person
          ? { id: person.id, email: person.email, display_name: person.displayName }
          : null,
      };
    };
    return entries.map((e) => ({ ...e, from: resolve(e.from), to: resolve(e.to) }));
  }
}

function toAction(r: Record<string, unknown>): FindingAction {
  return {
    id: String(r['id']),
    findingId: String(r['finding_id']),
    actor: {
      type: r['actor_type'] as ActorType,
      id: (r['actor_id'] as string | null) ?? null,
      label: (r['actor_label'] as string | null) ?? null,
      name: (r['actor_name'] as string | null) ?? null,
    },
    action: r['action'] as FindingActionName,
    from: (r['from_value'] as Record<string, unknown> | null) ?? null,
    to: (r['to_value'] as Record<string, unknown> | null) ?? null,
    at: r['at'] as Date,
  };
}
