import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import {
  NotificationDeliveriesRepository,
  type DeliverySummary,
} from '../notifications/notification-deliveries.repository';
import type { InstalledPlugin } from '../plugins/installed-plugins/installed-plugin';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';
import { checkChannelSettings } from './channel-settings';
import { ProjectPluginConfig, type ProjectPluginConfigView } from './project-plugin-config';
import { PluginChannelsError } from './plugin-channels.errors';
import { PluginChannelsRepository, type BackfillCounts } from './plugin-channels.repository';

export type ChannelConfigView = ProjectPluginConfigView;

export interface ProjectChannelView {
  plugin: InstalledPlugin;
  configured: boolean;
  enabled: boolean;
  /** The project's deliveries to this channel (pending, the last 24 h, the last failure). */
  delivery: DeliverySummary;
}

const NO_DELIVERIES: DeliverySummary = {
  pending: 0,
  delivered24h: 0,
  failed24h: 0,
  lastFailureAt: null,
  lastFailureMessage: null,
};

/** Channel kinds of the backfill and the catalog ids of their plugins. */
export const BACKFILL_CHANNELS = {
  mattermost: { pluginIds: ['mattermost-channel', 'mattermost'], required: [] as string[] },
  maxru: { pluginIds: ['maxru-channel', 'maxru'], required: ['chat_id'] },
} as const;
export type BackfillChannel = keyof typeof BACKFILL_CHANNELS;

/**
 * Notification channel plugins per project (docs/plugins/channels.md): which are available,
 * and each one's project settings. Reading needs membership of the project (any permission in
 * it); writing needs `manage_notifications`. Secrets are never returned; an empty value keeps
 * the stored one.
 */
@Injectable()
export class PluginChannelsService {
  constructor(
    private readonly plugins: InstalledPluginsService,
    private readonly repository: PluginChannelsRepository,
    private readonly config: ProjectPluginConfig,
    private readonly deliveries: NotificationDeliveriesRepository,
  ) {}

  private async channel(pluginId: string): Promise<InstalledPlugin> {
    const plugin = await this.plugins.get(pluginId).catch(() => undefined);
    if (!plugin || !plugin.capabilities.includes('notification_channel')) {
      throw new PluginChannelsError('channel_plugin_not_found', { plugin_id: pluginId });
    }
    return plugin;
  }

  async list(access: AccessContext, projectId: string): Promise<ProjectChannelView[]> {
    await this.config.assertVisible(access, projectId);
    const channels = await this.plugins.listEnabledByCapability('notification_channel');
    const configs = await this.repository.configs(projectId);
    const summaries = await this.deliveries.summaries(projectId);
    return channels.map((plugin) => {
      const config = configs.get(plugin.id);
      return {
        plugin,
        configured: config !== undefined,
        enabled: config?.settings['enabled'] === true,
        delivery: summaries.get(plugin.id) ?? NO_DELIVERIES,
      };
    });
  }

  async get(
    access: AccessContext,
    projectId: string,
    pluginId: string,
  ): Promise<ChannelConfigView> {
    await this.config.assertVisible(access, projectId);
    await this.channel(pluginId);
    return this.config.view(projectId, pluginId);
  }

  async put(
    access: AccessContext,
    projectId: string,
    pluginId: string,
    input: Record<string, unknown>,
  ): Promise<ChannelConfigView> {
    await this.config.assertVisible(access, projectId);
    this.config.assertWriter(access, projectId);
    const plugin = await this.channel(pluginId);
    const change = checkChannelSettings(plugin.manifest, input, {
      common: true,
      installation: plugin.settings,
    });
    await this.config.save(projectId, pluginId, change);
    return this.config.view(projectId, pluginId);
  }

  /** Moves the core's old settings of `channel` into its installed plugin (dry run unless final). */
  async backfill(
    channel: BackfillChannel,
    final: boolean,
  ): Promise<BackfillCounts & { pluginId: string }> {
    const kind = BACKFILL_CHANNELS[channel];
    const installed = await this.plugins.listEnabledByCapability('notification_channel');
    const plugin = installed.find((p) =>
      (kind.pluginIds as readonly string[]).includes(p.catalogPluginId),
    );
    if (!plugin) throw new PluginChannelsError('channel_plugin_not_installed', { channel });
    const counts = await this.repository.backfill(
      channel,
      plugin.id,
      [...kind.required],
      final,
      new Date(),
    );
    return { ...counts, pluginId: plugin.id };
  }
}
