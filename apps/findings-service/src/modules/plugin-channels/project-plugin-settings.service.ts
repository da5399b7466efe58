import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import type { InstalledPlugin } from '../plugins/installed-plugins/installed-plugin';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';
import { PluginSecretBox } from '../plugins/installed-plugins/plugin-secret-box';
import { PluginsError } from '../plugins/plugins.errors';
import { ProjectsError } from '../projects/projects.errors';
import { checkChannelSettings } from './channel-settings';
import { PluginChannelsRepository } from './plugin-channels.repository';

export interface ProjectPluginSettingsView {
  pluginId: string;
  projectId: string;
  settings: Record<string, unknown>;
  secretSettingsSet: string[];
}

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
    private readonly repository: PluginChannelsRepository,
    private readonly secrets: PluginSecretBox,
  ) {}

  async get(
    access: AccessContext,
    projectId: string,
    pluginId: string,
  ): Promise<ProjectPluginSettingsView> {
    await this.project(access, projectId);
    await this.plugin(pluginId);
    return this.view(projectId, pluginId);
  }

  async put(
    access: AccessContext,
    projectId: string,
    pluginId: string,
    input: Record<string, unknown>,
  ): Promise<ProjectPluginSettingsView> {
    await this.project(access, projectId);
    if (!access.can('manage_notifications', { projectId })) {
      throw new ProjectsError('access_denied');
    }
    const plugin = await this.plugin(pluginId);
    const change = checkChannelSettings(plugin.manifest, input, { common: false });
    const stored = await this.repository.config(projectId, pluginId);
    const secrets = { ...this.secrets.open(stored?.secretSettings ?? null), ...change.secrets };
    await this.repository.save(
      projectId,
      pluginId,
      change.settings,
      this.secrets.seal(secrets),
      new Date(),
    );
    return this.view(projectId, pluginId);
  }

  private async project(access: AccessContext, projectId: string): Promise<void> {
    const member =
      access.can('read_findings', { projectId }) ||
      access.can('manage_notifications', { projectId });
    if (!member || !(await this.repository.projectExists(projectId))) {
      throw new ProjectsError('project_not_found');
    }
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

  private async view(projectId: string, pluginId: string): Promise<ProjectPluginSettingsView> {
    const config = await this.repository.config(projectId, pluginId);
    return {
      pluginId,
      projectId,
      settings: config?.settings ?? {},
      secretSettingsSet: Object.keys(this.secrets.open(config?.secretSettings ?? null)).sort(),
    };
  }
}
