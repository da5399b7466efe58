import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { DeviceEntity } from '../devices/device.entity';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import type { WebhookEventType } from '../webhooks/webhook-events';
import {
  OPEN_DIRECTIVE_STATES,
  type DirectiveOutcome,
  type DirectiveState,
} from './directive-states';
import { IssuanceDirectiveEntity } from './issuance-directive.entity';

/** A directive with the serial of the device it addresses. */
export interface DirectiveRow {
  directive: IssuanceDirectiveEntity;
  serial: string;
}

export interface DirectiveFilter {
  state?: DirectiveState;
  deviceId?: string;
}

export type NewDirective = Pick<
  IssuanceDirectiveEntity,
  'id' | 'deviceId' | 'purpose' | 'person' | 'upn' | 'createdBy'
>;

/** The only code that touches `issuance_directives`. */
@Injectable()
export class IssuanceDirectivesRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: WebhookOutbox,
  ) {}

  private get repo() {
    return this.dataSource.getRepository(IssuanceDirectiveEntity);
  }

  /**
   * Inserts a pending directive and its `directive.created` event in one transaction; false
   * when an open one for the same target exists.
   */
  create(row: NewDirective, serial: string): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const inserted = await em
        .createQueryBuilder()
        .insert()
        .into(IssuanceDirectiveEntity)
        .values({ ...row, state: 'pending' })
        .orIgnore()
        .returning('id')
        .execute();
      if (inserted.raw.length === 0) return false;
      await this.event(em, 'directive.created', serial, row, {
        upn: row.upn,
        created_by: row.createdBy,
      });
      return true;
    });
  }

  findById(id: string): Promise<IssuanceDirectiveEntity | null> {
    return this.repo.findOneBy({ id });
  }

  /** The open directive for this device, purpose and person, if any. */
  findOpen(deviceId: string, purpose: string, person: string) {
    return this.repo
      .createQueryBuilder('d')
      .where('d.device_id = :deviceId AND d.purpose = :purpose AND d.person = :person', {
        deviceId,
        purpose,
        person,
      })
      .andWhere('d.state IN (:...open)', { open: OPEN_DIRECTIVE_STATES })
      .getOne();
  }

  /** Newest first. */
  async page(
    filter: DirectiveFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: DirectiveRow[]; total: number }> {
    const q = this.filtered(filter);
    const total = await q.getCount();
    return { items: await this.rows(q.limit(limit).offset(offset)), total };
  }

  async row(id: string): Promise<DirectiveRow | null> {
    const [row] = await this.rows(this.filtered({}).andWhere('d.id = :id', { id }));
    return row ?? null;
  }

  /**
   * The open directives of a device for its check-in answer, oldest first; the pending ones
   * become `delivered` in the same transaction.
   */
  deliverOpen(deviceId: string, at: Date): Promise<IssuanceDirectiveEntity[]> {
    return this.dataSource.transaction(async (em) => {
      await em
        .createQueryBuilder()
        .update(IssuanceDirectiveEntity)
        .set({ state: 'delivered', deliveredAt: at })
        .where('device_id = :deviceId AND state = :pending', { deviceId, pending: 'pending' })
        .execute();
      return em
        .getRepository(IssuanceDirectiveEntity)
        .createQueryBuilder('d')
        .where('d.device_id = :deviceId AND d.state = :delivered', {
          deviceId,
          delivered: 'delivered',
        })
        .orderBy('d.created_at', 'ASC')
        .addOrderBy('d.id', 'ASC')
        .getMany();
    });
  }

  /**
   * Moves an open directive to `cancelled` (with `directive.cancelled`); false when it is not
   * open (any more).
   */
  cancel(directive: DirectiveRow, by: string, at: Date): Promise<boolean> {
    return this.closeOpen(
      directive,
      { state: 'cancelled', cancelledAt: at, cancelledBy: by },
      (em) =>
        this.event(em, 'directive.cancelled', directive.serial, directive.directive, {
          cancelled_by: by,
          at: at.toISOString(),
        }),
    );
  }

  /**
   * Records the agent's outcome on an open directive (with `directive.reported`); false when
   * it is not open (any more).
   */
  report(
    directive: DirectiveRow,
    outcome: DirectiveOutcome,
    message: string | null,
    at: Date,
  ): Promise<boolean> {
    return this.closeOpen(
      directive,
      { state: outcome, outcomeMessage: message, reportedAt: at },
      (em) =>
        this.event(em, 'directive.reported', directive.serial, directive.directive, {
          outcome,
          message,
          at: at.toISOString(),
        }),
    );
  }

  private closeOpen(
    { directive }: DirectiveRow,
    changes: Partial<IssuanceDirectiveEntity>,
    then: (em: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const result = await em
        .createQueryBuilder()
        .update(IssuanceDirectiveEntity)
        .set(changes)
        .where('id = :id AND state IN (:...open)', {
          id: directive.id,
          open: OPEN_DIRECTIVE_STATES,
        })
        .execute();
      if ((result.affected ?? 0) === 0) return false;
      await then(em);
      return true;
    });
  }

  /** One webhook event about a directive (docs/certificate-service/webhooks.md). */
  private async event(
    em: EntityManager,
    type: WebhookEventType,
    serial: string,
    d: Pick<IssuanceDirectiveEntity, 'id' | 'deviceId' | 'purpose' | 'person'>,
    extra: Record<string, unknown>,
  ): Promise<void> {
    await this.outbox.enqueue(em, [
      {
        type,
        data: {
          directive_id: d.id,
          device_id: d.deviceId,
          serial,
          purpose: d.purpose,
          user: d.person,
          ...extra,
        },
      },
    ]);
  }

  /**
   * Whether `secretHash` is the agent secret (SHA-256) of one of the requests of the device
   * the directive addresses: the agent of that device, and only it, may report.
   */
  async agentOfDevice(deviceId: string, secretHash: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM certificate_requests WHERE device_id = $1 AND agent_secret_hash = $2 LIMIT 1`,
      [deviceId, secretHash],
    );
    return rows.length > 0;
  }

  private async rows(q: SelectQueryBuilder<IssuanceDirectiveEntity>): Promise<DirectiveRow[]> {
    const { entities, raw } = await q.getRawAndEntities<{ serial: string }>();
    return entities.map((directive, i) => ({ directive, serial: raw[i].serial }));
  }

  private filtered(filter: DirectiveFilter): SelectQueryBuilder<IssuanceDirectiveEntity> {
    const q = this.repo
      .createQueryBuilder('d')
      .innerJoin(DeviceEntity, 'dev', 'dev.id = d.device_id')
      .addSelect('dev.serial', 'serial')
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC');
    if (filter.state) q.andWhere('d.state = :state', { state: filter.state });
    if (filter.deviceId) q.andWhere('d.device_id = :deviceId', { deviceId: filter.deviceId });
    return q;
  }
}
