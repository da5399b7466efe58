import { Injectable, Logger } from '@nestjs/common';
import { CertsvcMetrics } from '../../app/metrics/certsvc-metrics';
import { actorLabel, type Actor } from '../../app/access/actor';
import type { AuditAction } from './audit-actions';
import type { AuditRecordEntity } from './audit-record.entity';
import { AuditRepository, type AuditFilter, type NewAuditRecord } from './audit.repository';
import { loggableError } from '@platform/logging';

/** A device acting for itself, proved by a key pinned to it (e.g. token recovery). */
export interface DeviceAuditActor {
  readonly kind: 'device';
  readonly serial: string;
}

export interface AuditEntry {
  action: AuditAction;
  /** Who acted; null for the service itself (bootstrap, background tasks). */
  actor: Actor | DeviceAuditActor | null;
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
    try {
      await this.repository.insert({
        action: entry.action,
        ...actorColumns(entry.actor),
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
          ...actorColumns(entry.actor),
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

/** The actor columns: email, `API`, `device:<serial>` or `system`, and the kind. */
function actorColumns(
  actor: AuditEntry['actor'],
): Pick<NewAuditRecord, 'actor' | 'actorKind' | 'serviceAccountId'> {
  if (!actor) return { actor: 'system', actorKind: 'system', serviceAccountId: null };
  if (actor.kind === 'device') {
    return { actor: `device:${actor.serial}`, actorKind: 'device', serviceAccountId: null };
  }
  return {
    actor: actorLabel(actor),
    actorKind: actor.kind,
    serviceAccountId: actor.kind === 'service_account' ? actor.id : null,
  };
}
