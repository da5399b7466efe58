import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ActionLogEntry } from './finding-action';

/** One statement for any number of entries: parallel arrays unnested server-side. */
const INSERT = `
INSERT INTO finding_actions
  (finding_id, project_id, actor_type, actor_id, actor_label, action, from_value, to_value, at)
SELECT e.finding_id, e.project_id, e.actor_type, e.actor_id, e.actor_label, e.action,
       e.from_value, e.to_value, COALESCE(e.at, now())
  FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::text[],
              $7::jsonb[], $8::jsonb[], $9::timestamptz[])
    AS e(finding_id, project_id, actor_type, actor_id, actor_label, action, from_value,
         to_value, at)`;

/**
 * Writes action-log entries. Pass the `EntityManager` of the transaction that makes the
 * change so that the change and its entries commit (or roll back) together; the insert is
 * set-based (one statement per call), suitable for ingestion batches.
 *
 * ```ts
 * await actionLog.write(manager, renewed.map((f) => ({
 *   findingId: f.id, projectId: f.project_id, actor: systemActor('ingestion'),
 *   action: 'renewed', from: { status: 'fixed' }, to: { status: 'renewed', report_id },
 * })));
 * ```
 */
@Injectable()
export class ActionLogWriter {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async write(
    manager: EntityManager | undefined,
    entries: readonly ActionLogEntry[],
  ): Promise<void> {
    if (entries.length === 0) return;
    const params = [
      entries.map((e) => e.findingId),
      entries.map((e) => e.projectId),
      entries.map((e) => e.actor.type),
      entries.map((e) => e.actor.id),
      entries.map((e) => e.actor.label),
      entries.map((e) => e.action),
      entries.map((e) => (e.from ? JSON.stringify(e.from) : null)),
      entries.map((e) => (e.to ? JSON.stringify(e.to) : null)),
      entries.map((e) => e.at ?? null),
    ];
    await (manager ?? this.dataSource.manager).query(INSERT, params);
  }
}
