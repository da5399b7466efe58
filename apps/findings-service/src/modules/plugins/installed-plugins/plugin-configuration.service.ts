import { Injectable } from '@nestjs/common';
import type { Actor } from '../../action-log/finding-action';
import { PluginAuditLog } from '../audit/plugin-audit.log';
import { PluginsError } from '../plugins.errors';
import type { InstalledPlugin } from './installed-plugin';
import { InstalledPluginsRepository } from './installed-plugins.repository';
import { InstalledPluginsService } from './installed-plugins.service';
import { loadInside, lockInstallation } from './install-lifecycle';
import { applySettings, missingRequired, type SettingsInput } from './plugin-settings';
import { PluginSecretBox } from './plugin-secret-box';

/**
 * An installation's settings (secrets sealed, the plugin's own check first) and its switch:
 * enabled only with every required setting set, then loaded in the runner inside the
 * transaction; disabled, then unloaded. A refused call changes nothing.
 */
@Injectable()
export class PluginConfigurationService {
  constructor(
    private readonly repository: InstalledPluginsRepository,
    private readonly plugins: InstalledPluginsService,
    private readonly secrets: PluginSecretBox,
    private readonly audit: PluginAuditLog,
  ) {}

  async updateSettings(id: string, input: SettingsInput, actor: Actor): Promise<InstalledPlugin> {
    await this.repository.transaction(async (manager) => {
      const row = await lockInstallation(this.repository, manager, id);
      const manifest = this.plugins.view(row).manifest;
      const result = applySettings(
        manifest,
        { settings: row.settings, secrets: this.secrets.open(row.secretSettings) },
        input,
      );
      if (result.changed.length === 0) return;
      // The plugin's own check (capability config_validator) before anything is stored.
      await this.plugins.validateConfig(row, {
        settings: result.settings,
        secrets: result.secrets,
      });
      await this.repository.update(manager, id, {
        settings: result.settings,
        secretSettings: this.secrets.seal(result.secrets),
      });
      await this.audit.record(
        {
          actor,
          action: 'plugin.settings_changed',
          installedPluginId: id,
          details: { names: result.changed },
        },
        manager,
      );
      // url settings change the permitted hosts: a loaded installation is loaded again
      if (row.enabled) {
        await loadInside(this.repository, this.plugins, manager, id);
      }
    });
    return this.plugins.get(id);
  }

  async setEnabled(id: string, enabled: boolean, actor: Actor): Promise<InstalledPlugin> {
    await this.repository.transaction(async (manager) => {
      const row = await lockInstallation(this.repository, manager, id);
      if (row.enabled === enabled) return;
      if (enabled) {
        const manifest = this.plugins.view(row).manifest;
        const missing = missingRequired(
          manifest,
          row.settings,
          this.secrets.open(row.secretSettings),
        );
        if (missing.length > 0) {
          throw new PluginsError('plugin_settings_invalid', {
            problems: `required settings without a value: ${missing.join(', ')}`,
          });
        }
      }
      await this.repository.update(manager, id, { enabled });
      await this.audit.record(
        { actor, action: enabled ? 'plugin.enabled' : 'plugin.disabled', installedPluginId: id },
        manager,
      );
      if (enabled) await loadInside(this.repository, this.plugins, manager, id);
    });
    if (!enabled) await this.plugins.unload(id);
    return this.plugins.get(id);
  }
}
