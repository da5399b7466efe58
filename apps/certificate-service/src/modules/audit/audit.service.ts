import { Injectable, Logger } from '@nestjs/common';
import { CertsvcMetrics } from '../../app/metrics/certsvc-metrics';
import { actorLabel, type Actor } from '../../app/access/actor';
import type { AuditAction } from './audit-actions';
import type { AuditRecordEntity } from './audit-record.entity';
import { AuditRepository, type AuditFilter } from './audit.repository';
import { loggableError } from '@platform/logging';

export interface AuditEntry {
  action: AuditAction;
  /** Who acted; null for the service itself (bootstrap, background tasks). */
  actor: Actor | null;
  /** What was acted on (email, service-account id, serial...). */
  target?: string;
  details?: Record<string, unknown>;
}

/** Records administrative actions. Never throws: the audited action has already happened. */
@Injectable()
export class AuditService {
  private readonly logger = new Logger('Audit');
  constructor(
    private readonly repository: AuditRepository,
    private readonly metrics: CertsvcMetrics,
  ) {}

  async record(entry: AuditEntry): Promise<void> {
    const actor = entry.actor;
    try {
      await this.repository.insert({
        action: entry.action,
        actor: actor ? actorLabel(actor) : 'system',
        actorKind: actor ? actor.kind : 'system',
        serviceAccountId: actor?.kind === 'service_account' ? actor.id : null,
        target: entry.target ?? null,
        details: entry.details ?? {},
      });
    } catch (error) {
      this.metrics.auditWriteFailed(entry.action);
      this.logger.error(
        {
          action: entry.action,
          target: entry.target,
          error: loggableError(error).message,
        },
        'audit write failed',
      );
    }
  }

  /** Several records in one write (bulk approval); never throws, like `record`. */
  async recordMany(entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      await this.repository.insertMany(
        entries.map((entry) => ({
          action: entry.action,
          actor: entry.actor ? actorLabel(entry.actor) : 'system',
          actorKind: entry.actor ? entry.actor.kind : 'system',
          serviceAccountId: entry.actor?.kind === 'service_account' ? entry.actor.id : null,
          target: entry.target ?? null,
          details: entry.details ?? {},
        })),
      );
    } catch (error) {
      for (const entry of entries) this.metrics.auditWriteFailed(entry.action);
      this.logger.error(
        {
          action: entries[0].action,
          count: entries.length,
          error: loggableError(error).message,
        },
        'audit write failed',
      );
    }
  }

  async page(
    filter: AuditFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: AuditRecordEntity[]; total: number }> {
    return this.repository.page(filter, limit, offset);
  }

  async export(filter: AuditFilter, max: number): Promise<AuditRecordEntity[]> {
    return this.repository.all(filter, max);
  }
}
