import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { PluginAuditEventEntity } from './plugin-audit-event.entity';

export type NewPluginAuditEvent = Omit<PluginAuditEventEntity, 'id' | 'at'>;

/** Writes and reads the plugin administration audit log. */
@Injectable()
export class PluginAuditRepository {
  constructor(
    @InjectRepository(PluginAuditEventEntity)
    private readonly events: Repository<PluginAuditEventEntity>,
  ) {}

  async insert(event: NewPluginAuditEvent, manager?: EntityManager): Promise<void> {
    await (manager?.getRepository(PluginAuditEventEntity) ?? this.events).insert(
      event as QueryDeepPartialEntity<PluginAuditEventEntity>,
    );
  }

  /** Entries about one source or installation, oldest first. */
  listFor(filter: {
    marketplaceId?: string;
    installedPluginId?: string;
  }): Promise<PluginAuditEventEntity[]> {
    return this.events.find({ where: filter, order: { id: 'ASC' } });
  }
}
