import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { actorLabel, type Actor } from '../../app/access/actor';
import type { CorpAllowlistEntryEntity } from './corp-allowlist-entry.entity';
import { CorpAllowlistRepository } from './corp-allowlist.repository';
import { SettingsError } from './settings.errors';

@Injectable()
export class CorpAllowlistService {
  constructor(
    private readonly allowlist: CorpAllowlistRepository,
    private readonly audit: AuditService,
  ) {}

  list(): Promise<CorpAllowlistEntryEntity[]> {
    return this.allowlist.list();
  }

  /** Idempotent: adding a listed serial changes nothing and writes no audit record. */
  async add(actor: Actor, serial: string, note: string | null): Promise<CorpAllowlistEntryEntity> {
    const { entry, created } = await this.allowlist.add({
      serial: serial.trim(),
      note,
      addedBy: actorLabel(actor),
    });
    if (created) {
      await this.audit.record({
        action: 'corp_allowlist.add',
        actor,
        target: entry.serial,
        details: { note },
      });
    }
    return entry;
  }

  async remove(actor: Actor, serial: string): Promise<void> {
    if (!(await this.allowlist.remove(serial)))
      throw new SettingsError('corp_allowlist_entry_not_found');
    await this.audit.record({ action: 'corp_allowlist.remove', actor, target: serial });
  }
}
