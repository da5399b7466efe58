import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import { DeviceEntity } from './device.entity';
import { PurposeRequestEntity, type PurposeRequestStatus } from './purpose-request.entity';

export interface PurposeRequestRow {
  request: PurposeRequestEntity;
  serial: string;
}

@Injectable()
export class PurposeRequestsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(PurposeRequestEntity);
  }

  findPending(deviceId: string, purpose: Purpose): Promise<PurposeRequestEntity | null> {
    return this.repo.findOneBy({ deviceId, purpose, status: 'pending' });
  }

  /** Queues a request unless one is already pending; returns the pending one either way. */
  async createPending(row: {
    id: string;
    deviceId: string;
    purpose: Purpose;
    note: string | null;
  }): Promise<{ request: PurposeRequestEntity; created: boolean }> {
    await this.repo
      .createQueryBuilder()
      .insert()
      .values({ ...row, status: 'pending' })
      .orIgnore()
      .execute();
    const request = await this.repo.findOneByOrFail({
      deviceId: row.deviceId,
      purpose: row.purpose,
      status: 'pending',
    });
    return { request, created: request.id === row.id };
  }

  async queue(
    status: PurposeRequestStatus,
    limit: number,
    offset: number,
  ): Promise<{ items: PurposeRequestRow[]; total: number }> {
    const q = this.repo
      .createQueryBuilder('r')
      .innerJoin(DeviceEntity, 'd', 'd.id = r.device_id')
      .addSelect('d.serial', 'serial')
      .where('r.status = :status', { status })
      .orderBy('r.created_at', 'ASC')
      .addOrderBy('r.id', 'ASC');
    const total = await q.getCount();
    const { entities, raw } = await q.limit(limit).offset(offset).getRawAndEntities<{
      serial: string;
    }>();
    return { items: entities.map((request, i) => ({ request, serial: raw[i].serial })), total };
  }

  /**
   * Decides the pending request of `purpose` on a device; on approval the purpose is also
   * assigned to the device (one transaction). Null when nothing was pending.
   */
  async decide(
    deviceId: string,
    purpose: Purpose,
    status: Exclude<PurposeRequestStatus, 'pending'>,
    decidedBy: string,
    outer?: EntityManager,
  ): Promise<PurposeRequestEntity | null> {
    const work = async (em: EntityManager) => {
      const [rows] = (await em.query(
        `UPDATE device_purpose_requests SET status = $3, decided_at = now(), decided_by = $4
          WHERE device_id = $1 AND purpose = $2 AND status = 'pending' RETURNING id`,
        [deviceId, purpose, status, decidedBy],
      )) as [{ id: string }[], number];
      const id = rows[0]?.id;
      if (id === undefined) return null;
      if (status === 'approved') {
        await em.query(
          `UPDATE devices SET assigned_purposes = array_append(assigned_purposes, $2), updated_at = now()
            WHERE id = $1 AND NOT ($2 = ANY(assigned_purposes))`,
          [deviceId, purpose],
        );
      }
      return em.getRepository(PurposeRequestEntity).findOneByOrFail({ id });
    };
    // Inside the caller's transaction when given (the seat check's ledger lock), else its own.
    return outer ? work(outer) : this.dataSource.transaction(work);
  }
}
