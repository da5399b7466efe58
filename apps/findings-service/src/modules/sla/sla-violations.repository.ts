import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActionLogWriter } from '../action-log/action-log.writer';
import type { Actor } from '../action-log/finding-action';
import type { VisibleScope } from '../projects/visibility.service';
import type { SlaResolution, SlaViolationKind } from './sla-violation.entity';
import type {
  SlaViolationCursor,
  SlaViolationFilters,
  SlaViolationView,
} from './sla-violation-view';

const SELECT = `
SELECT v.*, v.opened_at::text AS cursor_at, f.title AS finding_title, f.status AS finding_status,
       p.name AS project_name, pr.name AS product_name
  FROM sla_violations v
  LEFT JOIN findings f ON f.id = v.finding_id
  LEFT JOIN projects p ON p.id = v.project_id
  LEFT JOIN products pr ON pr.id = v.product_id`;

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function toView(r: Record<string, unknown>): SlaViolationView {
  const byType = strOrNull(r['resolved_by_type']);
  return {
    id: String(r['id']),
    findingId: String(r['finding_id']),
    findingTitle: strOrNull(r['finding_title']),
    findingStatus: strOrNull(r['finding_status']),
    projectId: String(r['project_id']),
    projectName: strOrNull(r['project_name']),
    productId: String(r['product_id']),
    productName: strOrNull(r['product_name']),
    severity: String(r['severity']),
    kind: r['kind'] as SlaViolationKind,
    dueAt: date(r['due_at']),
    openedAt: date(r['opened_at']),
    notifiedAt: dateOrNull(r['notified_at']),
    resolvedAt: dateOrNull(r['resolved_at']),
    resolution: strOrNull(r['resolution']) as SlaResolution | null,
    resolvedBy: byType
      ? {
          type: byType as Actor['type'],
          id: strOrNull(r['resolved_by_id']),
          label: strOrNull(r['resolved_by_label']),
        }
      : null,
    comment: strOrNull(r['resolution_comment']),
    cursorAt: String(r['cursor_at']),
  };
}

/** Writes of one locked violation; its action-log entry commits in the same transaction. */
export class SlaViolationTx {
  constructor(
    private readonly manager: EntityManager,
    private readonly actionLog: ActionLogWriter,
  ) {}

  async resolve(
    violation: SlaViolationView,
    change: { resolution: SlaResolution; actor: Actor; comment: string | null; now: Date },
  ): Promise<void> {
    await this.manager.query(
      `UPDATE sla_violations SET resolved_at = $2, resolution = $3, resolved_by_type = $4,
         resolved_by_id = $5, resolved_by_label = $6, resolution_comment = $7 WHERE id = $1`,
      [
        violation.id,
        change.now,
        change.resolution,
        change.actor.type,
        change.actor.id,
        change.actor.label,
        change.comment,
      ],
    );
    await this.actionLog.write(this.manager, [
      {
        findingId: violation.findingId,
        projectId: violation.projectId,
        actor: change.actor,
        action: 'sla_violation_resolved',
        from: { violation_id: violation.id, kind: violation.kind },
        to: { resolution: change.resolution, comment: change.comment },
        at: change.now,
      },
    ]);
  }

  async reload(id: string): Promise<SlaViolationView | undefined> {
    const rows = (await this.manager.query(`${SELECT} WHERE v.id = $1`, [id])) as Record<
      string,
      unknown
    >[];
    return rows[0] ? toView(rows[0]) : undefined;
  }
}

/** Reads and manual resolution of deadline violations. */
@Injectable()
export class SlaViolationsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly actionLog: ActionLogWriter,
  ) {}

  /** One keyset page, newest first (`opened_at DESC, id DESC`), limited to `scope`. */
  async list(
    scope: VisibleScope,
    filters: SlaViolationFilters,
    cursor: SlaViolationCursor | undefined,
    fetch: number,
  ): Promise<SlaViolationView[]> {
    const values: unknown[] = [];
    const add = (v: unknown): string => {
      values.push(v);
      return `$${values.length}`;
    };
    // Violations of merged findings leave the list (docs/findings-service/merge.md).
    const where: string[] = ['f.merged_into_id IS NULL'];
    if (!scope.all) {
      const parts: string[] = [];
      if (scope.projectIds.length > 0)
        parts.push(`v.project_id = ANY(${add(scope.projectIds)}::uuid[])`);
      if (scope.productIds.length > 0)
        parts.push(`v.product_id = ANY(${add(scope.productIds)}::uuid[])`);
      where.push(parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`);
    }
    if (filters.projectIds) where.push(`v.project_id = ANY(${add(filters.projectIds)}::uuid[])`);
    if (filters.productIds) where.push(`v.product_id = ANY(${add(filters.productIds)}::uuid[])`);
    if (filters.severities) where.push(`v.severity = ANY(${add(filters.severities)}::text[])`);
    if (filters.kinds) where.push(`v.kind = ANY(${add(filters.kinds)}::text[])`);
    if (filters.state === 'open') where.push('v.resolved_at IS NULL');
    if (filters.state === 'resolved') where.push('v.resolved_at IS NOT NULL');
    if (cursor) {
      where.push(
        `(v.opened_at, v.id) < (${add(cursor.openedAt)}::timestamptz, ${add(cursor.id)}::uuid)`,
      );
    }
    const rows = (await this.dataSource.query(
      `${SELECT} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY v.opened_at DESC, v.id DESC LIMIT ${add(fetch)}`,
      values,
    )) as Record<string, unknown>[];
    return rows.map(toView);
  }

  /** Locks the violation (FOR UPDATE) and runs `fn`; `undefined` when it does not exist. */
  withLockedViolation<T>(
    id: string,
    fn: (violation: SlaViolationView, tx: SlaViolationTx) => Promise<T>,
  ): Promise<T | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const rows = (await manager.query(`${SELECT} WHERE v.id = $1 FOR UPDATE OF v`, [
        id,
      ])) as Record<string, unknown>[];
      if (!rows[0]) return undefined;
      return fn(toView(rows[0]), new SlaViolationTx(manager, this.actionLog));
    });
  }
}
