import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import { DeviceEntity } from '../devices/device.entity';
import { CertificateRequestEntity } from '../requests/certificate-request.entity';

export type NewDevice = Pick<
  DeviceEntity,
  | 'id'
  | 'serial'
  | 'enrollmentTokenHash'
  | 'identityKey'
  | 'assignedPurposes'
  | 'enrollKeyHash'
  | 'agentVersion'
  | 'platform'
  | 'hostname'
  | 'lastSeenAt'
>;

export type NewRequest = Omit<
  CertificateRequestEntity,
  | 'device'
  | 'createdAt'
  | 'updatedAt'
  | 'decidedAt'
  | 'decidedBy'
  | 'statusReason'
  | 'installedAt'
  | 'installedAgentVersion'
>;

export interface DeviceSighting {
  agentVersion: string | null;
  platform: string | null;
  hostname: string | null;
  enrollKeyHash: string;
  at: Date;
}

/** The writes of one enrollment, inside one transaction. */
export class EnrollmentTx {
  constructor(private readonly em: EntityManager) {}

  /** Inserts the device unless its serial exists; true when inserted. */
  async insertDeviceIfAbsent(device: NewDevice): Promise<boolean> {
    const result = await this.em
      .createQueryBuilder()
      .insert()
      .into(DeviceEntity)
      .values(device)
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  lockDevice(serial: string): Promise<DeviceEntity | null> {
    return this.em
      .getRepository(DeviceEntity)
      .createQueryBuilder('d')
      .setLock('pessimistic_write')
      .where('d.serial = :serial', { serial })
      .getOne();
  }

  /** Records what the agent reported; pins the request key again if it was released. */
  async touchDevice(id: string, seen: DeviceSighting): Promise<void> {
    await this.em.query(
      `UPDATE devices SET agent_version = COALESCE($2, agent_version), platform = COALESCE($3, platform),
              hostname = COALESCE($4, hostname), enroll_key_hash = COALESCE(enroll_key_hash, $5),
              last_seen_at = $6, updated_at = now()
        WHERE id = $1`,
      [id, seen.agentVersion, seen.platform, seen.hostname, seen.enrollKeyHash, seen.at],
    );
  }

  /** Pending requests of the same device, purpose and user are replaced by the new one. */
  async supersedePending(
    deviceId: string,
    purpose: Purpose,
    userIdentity: string | null,
  ): Promise<void> {
    await this.em.query(
      `UPDATE certificate_requests SET status = 'superseded', updated_at = now()
        WHERE device_id = $1 AND purpose = $2 AND status = 'pending'
          AND user_identity IS NOT DISTINCT FROM $3`,
      [deviceId, purpose, userIdentity],
    );
  }

  async insertRequest(request: NewRequest): Promise<void> {
    await this.em.getRepository(CertificateRequestEntity).insert(request);
  }
}

@Injectable()
export class EnrollmentRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (tx: EnrollmentTx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((em) => work(new EnrollmentTx(em)));
  }
}
