import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import { DeviceEntity } from '../devices/device.entity';
import {
  insertDeviceIfAbsent,
  pinHardwareKeys,
  touchDevice,
  type DeviceSighting,
  type HardwarePins,
  type NewDevice,
} from '../devices/device-writes.repository';
import {
  insertRequest,
  supersedePendingRequests,
  type NewRequest,
} from '../requests/request-writes.repository';
import { WebhookOutbox } from '../webhooks/webhook-outbox';

/**
 * The writes of one enrollment, inside one transaction: the devices' and the requests' own
 * statements (devices/device-writes.repository.ts, requests/request-writes.repository.ts).
 */
export class EnrollmentTx {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: WebhookOutbox,
  ) {}

  /** Inserts the device unless its serial exists; true when inserted. */
  insertDeviceIfAbsent(device: NewDevice): Promise<boolean> {
    return insertDeviceIfAbsent(this.em, device);
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
  touchDevice(id: string, seen: DeviceSighting): Promise<void> {
    return touchDevice(this.em, id, seen);
  }

  /** Pins the hardware keys the enrollment proved where none is pinned. */
  pinHardwareKeys(id: string, pins: HardwarePins): Promise<void> {
    return pinHardwareKeys(this.em, id, pins);
  }

  /** Pending requests of the same device, purpose and user are replaced by the new one. */
  supersedePending(deviceId: string, purpose: Purpose, userIdentity: string | null): Promise<void> {
    return supersedePendingRequests(this.em, deviceId, purpose, userIdentity);
  }

  /** Inserts the request and its `request.created` webhook event (same transaction). */
  async insertRequest(request: NewRequest): Promise<void> {
    await insertRequest(this.em, request);
    await this.outbox.enqueue(this.em, [
      {
        type: 'request.created',
        data: {
          request_id: request.id,
          device_id: request.deviceId,
          purpose: request.purpose,
          requester_kind: request.requesterKind,
          requested_by: request.requestedBy,
          user_identity: request.userIdentity,
          registered_during_block: request.registeredDuringBlock,
        },
      },
    ]);
  }
}

@Injectable()
export class EnrollmentRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: WebhookOutbox,
  ) {}

  transaction<T>(work: (tx: EnrollmentTx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((em) => work(new EnrollmentTx(em, this.outbox)));
  }
}
