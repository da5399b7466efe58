import type { EntityManager } from 'typeorm';
import type { PluginSourceEntity } from '../marketplaces/plugin-source.entity';
import { PluginsError } from '../plugins.errors';
import type { InstalledPluginEntity } from './installed-plugin.entity';
import type { InstalledPluginsRepository } from './installed-plugins.repository';
import type { InstalledPluginsService } from './installed-plugins.service';

/** Steps the install lifecycle's services share: the source, the locked row, the reload. */

/** The source to install or update from: `plugin_source_not_found` / `plugin_source_inactive`. */
export async function activeSource(
  repository: InstalledPluginsRepository,
  id: string,
): Promise<PluginSourceEntity> {
  const source = await repository.source(id);
  if (!source) throw new PluginsError('plugin_source_not_found');
  if (!source.isActive) throw new PluginsError('plugin_source_inactive');
  return source;
}

/** The installation's row locked in `manager`'s transaction; `installed_plugin_not_found`. */
export async function lockInstallation(
  repository: InstalledPluginsRepository,
  manager: EntityManager,
  id: string,
): Promise<InstalledPluginEntity> {
  const row = await repository.lockById(manager, id);
  if (!row) throw new PluginsError('installed_plugin_not_found');
  return row;
}

/** Loads the row as it now stands in `manager`'s transaction (read back through it). */
export async function loadInside(
  repository: InstalledPluginsRepository,
  plugins: InstalledPluginsService,
  manager: EntityManager,
  id: string,
): Promise<void> {
  const row = await repository.findById(id, manager);
  if (!row) return;
  await plugins.loadRow(row, manager);
}
