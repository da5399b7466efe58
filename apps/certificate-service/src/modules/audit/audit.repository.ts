import { Injectable } from '@nestjs/common';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import { AuditRecordEntity, type AuditActorKind } from './audit-record.entity';

export interface NewAuditRecord {
  action: string;
  actor: string;
  actorKind: AuditActorKind;
  serviceAccountId: string | null;
  target: string | null;
  details: Record<string, unknown>;
}

export interface AuditFilter {
  action?: string;
  actor?: string;
  since?: Date;
  until?: Date;
}

@Injectable()
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(record: NewAuditRecord): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO audit_log (action, actor, actor_kind, service_account_id, target, details)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
      [
        record.action,
        record.actor,
        record.actorKind,
        record.serviceAccountId,
        record.target,
        JSON.stringify(record.details),
      ],
    );
  }

  /** One multi-row INSERT (bulk actions such as approving many requests). */
  async insertMany(records: readonly NewAuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO audit_log (action, actor, actor_kind, service_account_id, target, details)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::uuid[], $5::varchar[], $6::jsonb[])`,
      [
        records.map((r) => r.action),
        records.map((r) => r.actor),
        records.map((r) => r.actorKind),
        records.map((r) => r.serviceAccountId),
        records.map((r) => r.target),
        records.map((r) => JSON.stringify(r.details)),
      ],
    );
  }

  /** Newest first. */
  async page(
    filter: AuditFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: AuditRecordEntity[]; total: number }> {
    const [items, total] = await this.filtered(filter)
      .orderBy('a.at', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .take(limit)
      .skip(offset)
      .getManyAndCount();
    return { items, total };
  }

  async all(filter: AuditFilter, max: number): Promise<AuditRecordEntity[]> {
    return this.filtered(filter)
      .orderBy('a.at', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .take(max)
      .getMany();
  }

  private filtered(filter: AuditFilter): SelectQueryBuilder<AuditRecordEntity> {
    const q = this.dataSource.getRepository(AuditRecordEntity).createQueryBuilder('a');
    if (filter.action) q.andWhere('a.action = :action', { action: filter.action });
    if (filter.actor) q.andWhere('a.actor = :actor', { actor: filter.actor });
    if (filter.since) q.andWhere('a.at >= :since', { since: filter.since });
    if (filter.until) q.andWhere('a.at < :until', { until: filter.until });
    return q;
  }
}
