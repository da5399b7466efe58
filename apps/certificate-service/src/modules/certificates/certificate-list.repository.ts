import { Injectable } from '@nestjs/common';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import { DeviceEntity } from '../devices/device.entity';
import { CertificateEntity } from './certificate.entity';
import type { CertificateStatus } from './certificate-status';
import type { Purpose } from '../../app/domain/purposes';

export interface CertificateFilter {
  /** Lowercase hex start of the serial. */
  serialPrefix?: string;
  /** Exact device serial. */
  device?: string;
  /** Part of the subject or the user identity (case-insensitive). */
  subject?: string;
  purpose?: Purpose;
  status?: CertificateStatus;
}

/** A listed certificate (without its DER) with the serial of its device. */
export type CertificateListRow = Omit<CertificateEntity, 'der' | 'chainPem'> & {
  deviceSerial: string;
};

const COLUMNS = [
  'c.serial',
  'c.requestId',
  'c.deviceId',
  'c.purpose',
  'c.subject',
  'c.userIdentity',
  'c.notBefore',
  'c.notAfter',
  'c.status',
  'c.revokedAt',
  'c.revocationReason',
  'c.issuerKind',
  'c.keyProtection',
  'c.supersededAt',
  'c.supersededBy',
  'c.createdAt',
];

/** The admin list of issued certificates (reads only; the DER stays in the table). */
@Injectable()
export class CertificateListRepository {
  constructor(private readonly dataSource: DataSource) {}

  async list(
    filter: CertificateFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: CertificateListRow[]; total: number }> {
    const query = this.base();
    if (filter.serialPrefix) {
      query.andWhere(`c.serial LIKE :prefix`, { prefix: `${escapeLike(filter.serialPrefix)}%` });
    }
    if (filter.device) query.andWhere('d.serial = :device', { device: filter.device });
    if (filter.subject) {
      query.andWhere('(c.subject ILIKE :subject OR c.user_identity ILIKE :subject)', {
        subject: `%${escapeLike(filter.subject)}%`,
      });
    }
    if (filter.purpose) query.andWhere('c.purpose = :purpose', { purpose: filter.purpose });
    if (filter.status) query.andWhere('c.status = :status', { status: filter.status });
    const [rows, total] = await Promise.all([
      query
        .clone()
        .orderBy('c.createdAt', 'DESC')
        .addOrderBy('c.serial', 'DESC')
        .offset(offset)
        .limit(limit)
        .getRawAndEntities(),
      query.getCount(),
    ]);
    return { items: withDeviceSerials(rows), total };
  }

  async find(serial: string): Promise<CertificateListRow | null> {
    const rows = await this.base().where('c.serial = :serial', { serial }).getRawAndEntities();
    return withDeviceSerials(rows)[0] ?? null;
  }

  private base(): SelectQueryBuilder<CertificateEntity> {
    return this.dataSource
      .getRepository(CertificateEntity)
      .createQueryBuilder('c')
      .select(COLUMNS)
      .innerJoin(DeviceEntity, 'd', 'd.id = c.device_id')
      .addSelect('d.serial', 'device_serial');
  }
}

function withDeviceSerials(result: {
  entities: CertificateEntity[];
  raw: { c_serial: string; device_serial: string }[];
}): CertificateListRow[] {
  const devices = new Map(result.raw.map((r) => [r.c_serial, r.device_serial]));
  return result.entities.map((entity) => ({
    ...entity,
    deviceSerial: devices.get(entity.serial) ?? '',
  }));
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
