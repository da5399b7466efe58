import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../../action-log/finding-action';
import { PluginAuditRepository } from './plugin-audit.repository';

/** Actions of the plugin administration audit log (docs/plugins/installation.md). */
export type PluginAuditAction =
  | 'marketplace.created'
  | 'marketplace.updated'
  | 'marketplace.native_granted'
  | 'marketplace.native_withdrawn'
  | 'marketplace.deleted'
  | 'plugin.installed'
  | 'plugin.updated'
  | 'plugin.update_held'
  | 'plugin.capability_change_acknowledged'
  | 'plugin.enabled'
  | 'plugin.disabled'
  | 'plugin.settings_changed'
  | 'plugin.uninstalled';

/**
 * Records who changed what in the plugin administration, in the same transaction as the
 * change, and logs it. `details` never carries secret values (only setting names).
 */
@Injectable()
export class PluginAuditLog {
  private readonly logger = new Logger('PluginAudit');

  constructor(private readonly repository: PluginAuditRepository) {}

  async record(
    entry: {
      actor: Actor;
      action: PluginAuditAction;
      marketplaceId?: string | null;
      installedPluginId?: string | null;
      details?: Record<string, unknown>;
    },
    manager?: EntityManager,
  ): Promise<void> {
    await this.repository.insert(
      {
        actorType: entry.actor.type,
        actorId: entry.actor.id,
        actorLabel: entry.actor.label,
        action: entry.action,
        marketplaceId: entry.marketplaceId ?? null,
        installedPluginId: entry.installedPluginId ?? null,
        details: entry.details ?? {},
      },
      manager,
    );
    this.logger.log(
      `${entry.action} by ${entry.actor.type}:${entry.actor.label ?? entry.actor.id ?? '-'}` +
        (entry.marketplaceId ? ` source=${entry.marketplaceId}` : '') +
        (entry.installedPluginId ? ` plugin=${entry.installedPluginId}` : ''),
    );
  }
}
