import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { DeviceEntity } from '../devices/device.entity';

/**
 * The transaction of one recovery. It only reads (and locks) the device row; the new token is
 * written with the devices module's `DevicesRepository.update` on the same `EntityManager`.
 */
@Injectable()
export class TokenRecoverRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The device, its row locked until the transaction ends (a concurrent release waits). */
  lockDevice(em: EntityManager, serial: string): Promise<DeviceEntity | null> {
    return em
      .getRepository(DeviceEntity)
      .createQueryBuilder('d')
      .setLock('pessimistic_write')
      .where('d.serial = :serial', { serial })
      .getOne();
  }
}
