import { Injectable } from '@nestjs/common';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import { DeviceEntity } from '../devices/device.entity';
import { CertificateRequestEntity } from './certificate-request.entity';
import type { RequestStatus } from './request-status';

export interface RequestFilter {
  status?: RequestStatus;
  purpose?: Purpose;
  /** Exact device serial. */
  serial?: string;
  since?: Date;
  until?: Date;
}

export interface RequestRow {
  request: CertificateRequestEntity;
  serial: string;
}

@Injectable()
export class RequestsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(CertificateRequestEntity);
  }

  findById(id: string): Promise<CertificateRequestEntity | null> {
    return this.repo.findOneBy({ id });
  }

  /** Newest first. */
  async page(
    filter: RequestFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: RequestRow[]; total: number }> {
    const total = await this.count(filter);
    return { items: await this.rows(this.filtered(filter).limit(limit).offset(offset)), total };
  }

  all(filter: RequestFilter, max: number): Promise<RequestRow[]> {
    return this.rows(this.filtered(filter).limit(max));
  }

  /** Agent check-in: the certificate is installed. */
  async markInstalled(id: string, agentVersion: string | null, at: Date): Promise<void> {
    await this.repo.update({ id }, { installedAt: at, installedAgentVersion: agentVersion });
  }

  private async rows(q: SelectQueryBuilder<CertificateRequestEntity>): Promise<RequestRow[]> {
    const { entities, raw } = await q.getRawAndEntities<{ serial: string }>();
    return entities.map((request, i) => ({ request, serial: raw[i].serial }));
  }

  /**
   * The filter's count: `COUNT(*)` of the requests alone (every request has its device, the
   * foreign key says so), joined to `devices` only for the serial filter. TypeORM's getCount
   * would count DISTINCT ids over the join: with 50 000 pending requests a sequential scan and a
   * hash join of every device (~400 ms) instead of an index-only scan of (status, created_at).
   */
  private async count(filter: RequestFilter): Promise<number> {
    const q = this.repo.createQueryBuilder('r').select('COUNT(*)', 'n');
    if (filter.serial) q.innerJoin(DeviceEntity, 'd', 'd.id = r.device_id');
    const row = await this.where(q, filter).getRawOne<{ n: string }>();
    return Number(row?.n ?? 0);
  }

  private filtered(filter: RequestFilter): SelectQueryBuilder<CertificateRequestEntity> {
    const q = this.repo
      .createQueryBuilder('r')
      .innerJoin(DeviceEntity, 'd', 'd.id = r.device_id')
      .addSelect('d.serial', 'serial');
    return this.where(q, filter).orderBy('r.created_at', 'DESC').addOrderBy('r.id', 'ASC');
  }

  private where(
    q: SelectQueryBuilder<CertificateRequestEntity>,
    filter: RequestFilter,
  ): SelectQueryBuilder<CertificateRequestEntity> {
    if (filter.status) q.andWhere('r.status = :status', { status: filter.status });
    if (filter.purpose) q.andWhere('r.purpose = :purpose', { purpose: filter.purpose });
    if (filter.serial) q.andWhere('d.serial = :serial', { serial: filter.serial });
    if (filter.since) q.andWhere('r.created_at >= :since', { since: filter.since });
    if (filter.until) q.andWhere('r.created_at < :until', { until: filter.until });
    return q;
  }
}
