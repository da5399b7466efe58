import { Injectable } from '@nestjs/common';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import { DeviceEntity } from '../devices/device.entity';
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
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(IssuanceDirectiveEntity);
  }

  /** Inserts a pending directive; false when an open one for the same target exists. */
  async create(row: NewDirective): Promise<boolean> {
    const inserted = await this.repo
      .createQueryBuilder()
      .insert()
      .values({ ...row, state: 'pending' })
      .orIgnore()
      .returning('id')
      .execute();
    return inserted.raw.length > 0;
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

  /** Moves an open directive to `cancelled`; false when it is not open (any more). */
  async cancel(id: string, by: string, at: Date): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ state: 'cancelled', cancelledAt: at, cancelledBy: by })
      .where('id = :id AND state IN (:...open)', { id, open: OPEN_DIRECTIVE_STATES })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Records the agent's outcome on an open directive; false when it is not open (any more). */
  async report(
    id: string,
    outcome: DirectiveOutcome,
    message: string | null,
    at: Date,
  ): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ state: outcome, outcomeMessage: message, reportedAt: at })
      .where('id = :id AND state IN (:...open)', { id, open: OPEN_DIRECTIVE_STATES })
      .execute();
    return (result.affected ?? 0) > 0;
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
