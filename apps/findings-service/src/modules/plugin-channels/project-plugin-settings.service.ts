import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import type { InstalledPlugin } from '../plugins/installed-plugins/installed-plugin';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';
import { PluginsError } from '../plugins/plugins.errors';
import { checkChannelSettings } from './channel-settings';
import { ProjectPluginConfig, type ProjectPluginConfigView } from './project-plugin-config';

export type ProjectPluginSettingsView = ProjectPluginConfigView;

/**
 * A project's values of a WebAssembly plugin's `per_project` settings (docs/plugins/
 * project-settings.md): what `get-project-secret` answers for the project's events. Members
 * read (never a secret's value); `manage_notifications` on the project writes. Stored beside
 * the channels' project settings, sealed like them; a notification channel keeps its own route.
 */
@Injectable()
export class ProjectPluginSettingsService {
  constructor(
    private readonly plugins: InstalledPluginsService,
    private readonly config: ProjectPluginConfig,
  ) {}

  async get(
    access: AccessContext,
    projectId: string,
    pluginId: string,
  ): Promise<ProjectPluginSettingsView> {
    await this.config.assertVisible(access, projectId);
    await this.plugin(pluginId);
    return this.config.view(projectId, pluginId);
  }

  async put(
    access: AccessContext,
    projectId: string,
    pluginId: string,
    input: Record<string, unknown>,
  ): Promise<ProjectPluginSettingsView> {
    await this.config.assertVisible(access, projectId);
    this.config.assertWriter(access, projectId);
    const plugin = await this.plugin(pluginId);
    const change = checkChannelSettings(plugin.manifest, input, { common: false });
    await this.config.save(projectId, pluginId, change);
    return this.config.view(projectId, pluginId);
  }

  /** An installed WebAssembly plugin that declares per-project settings. */
  private async plugin(pluginId: string): Promise<InstalledPlugin> {
    const plugin = await this.plugins.get(pluginId).catch(() => undefined);
    if (
      !plugin ||
      plugin.runtime !== 'wasm' ||
      !plugin.manifest.settings.some((s) => s.per_project === true)
    ) {
      throw new PluginsError('installed_plugin_not_found', { plugin_id: pluginId });
    }
    return plugin;
  }
}
