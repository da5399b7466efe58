import { Injectable } from '@nestjs/common';
import type { Actor } from '../../action-log/finding-action';
import { PluginAuditLog } from '../audit/plugin-audit.log';
import { PluginSourcesRepository } from '../marketplaces/plugin-sources.repository';
import { PluginsError } from '../plugins.errors';
import { lockInstallation } from './install-lifecycle';
import { InstalledPluginRemovals } from './installed-plugin-removals';
import { InstalledPluginsRepository } from './installed-plugins.repository';
import { InstalledPluginsService } from './installed-plugins.service';

/**
 * Uninstalling (docs/plugins/uninstall.md): an installation is removed with its settings and
 * sealed secrets, every project's settings of it and, when no other installation uses them,
 * its artifact bytes; an enabled one is unloaded from the runner first. What it wrote into
 * findings (enrichment tags, imported findings) stays. A catalog source is removed only when
 * no installation comes from it. Both are audited; the audit events stay.
 */
@Injectable()
export class PluginUninstallService {
  constructor(
    private readonly repository: InstalledPluginsRepository,
    private readonly sources: PluginSourcesRepository,
    private readonly plugins: InstalledPluginsService,
    private readonly removals: InstalledPluginRemovals,
    private readonly audit: PluginAuditLog,
  ) {}

  async uninstall(id: string, actor: Actor): Promise<void> {
    const removed = await this.repository.transaction(async (manager) => {
      const row = await lockInstallation(this.repository, manager, id);
      await this.removals.run(manager, id);
      await this.repository.delete(manager, id);
      await this.repository.deleteArtifactIfUnused(manager, row.artifactSha256);
      await this.audit.record(
        {
          actor,
          action: 'plugin.uninstalled',
          installedPluginId: id,
          marketplaceId: row.marketplaceId,
          details: {
            catalog_plugin_id: row.catalogPluginId,
            version: row.version,
            was_enabled: row.enabled,
          },
        },
        manager,
      );
      return row;
    });
    // Unloaded after the commit: a failed unload leaves a runner that forgets it on restart.
    if (removed.enabled) await this.plugins.unload(id);
    else this.plugins.forget(id);
  }

  async deleteSource(id: string, actor: Actor): Promise<void> {
    await this.sources.transaction(async (manager) => {
      const source = await this.sources.lockById(manager, id);
      if (!source) throw new PluginsError('plugin_source_not_found');
      // Registered again at every start: deactivate it (is_active false) instead.
      if (source.official) throw new PluginsError('conflict', { reason: 'official_source' });
      const installed = await this.repository.countFromSource(manager, id);
      if (installed > 0) {
        throw new PluginsError('conflict', {
          reason: 'plugin_source_in_use',
          installed_plugins: installed,
        });
      }
      await this.sources.delete(manager, id);
      await this.audit.record(
        {
          actor,
          action: 'marketplace.deleted',
          marketplaceId: id,
          details: { name: source.name, official: source.official },
        },
        manager,
      );
    });
  }
}
