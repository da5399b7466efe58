import { Injectable } from '@nestjs/common';
import { InputValidationError } from '@platform/errors';
import type { AccessContext } from '../../app/access/access-context';
import { checkChannelSettings } from '../plugin-channels/channel-settings';
import { ProjectPluginConfig } from '../plugin-channels/project-plugin-config';
import type { InstalledPlugin } from '../plugins/installed-plugins/installed-plugin';
import {
  InstalledPluginsService,
  permittedHostsOf,
} from '../plugins/installed-plugins/installed-plugins.service';
import { TicketSettingsRepository } from './ticket-settings.repository';
import type { TrackerClosedAction } from './tickets.entities';
import { TicketsError } from './tickets.errors';
import { PREVIOUS_SECRET_TTL_SECONDS, hashWebhookSecret, newWebhookSecret } from './webhook-secret';

/** The webhook path of a project; `{secret}` is the value the rotation answers once. */
export const webhookPath = (projectId: string, secret = '{secret}'): string =>
  `/api/v1/webhooks/ticketing/${projectId}/${secret}`;

export interface TicketConfigView {
  projectId: string;
  pluginId: string | null;
  settings: Record<string, unknown>;
  secretSettingsSet: string[];
  defaultTarget: string | null;
  trackerClosedAction: TrackerClosedAction;
  syncStatusToTracker: boolean;
  webhook: {
    secretSet: boolean;
    rotatedAt: Date | null;
    previousValidUntil: Date | null;
    urlTemplate: string;
  };
}

export interface TicketConfigChange {
  pluginId: string;
  settings: Record<string, unknown>;
  defaultTarget?: string | null;
  trackerClosedAction?: TrackerClosedAction;
  syncStatusToTracker?: boolean;
}

/**
 * A project's ticket provider (docs/findings-service/tickets.md, "Configuration"): which
 * installed provider, its per-project setting values (stored with the other per-project plugin
 * settings, sealed), the default target, what a tracker closing a task does, and the webhook
 * secret. Members read; `manage_notifications` writes and rotates.
 */
@Injectable()
export class TicketConfigService {
  constructor(
    private readonly repository: TicketSettingsRepository,
    private readonly projectConfig: ProjectPluginConfig,
    private readonly plugins: InstalledPluginsService,
  ) {}

  async get(access: AccessContext, projectId: string): Promise<TicketConfigView> {
    await this.projectConfig.assertVisible(access, projectId);
    return this.view(projectId);
  }

  async put(
    access: AccessContext,
    projectId: string,
    change: TicketConfigChange,
  ): Promise<TicketConfigView> {
    await this.projectConfig.assertVisible(access, projectId);
    this.projectConfig.assertWriter(access, projectId);
    const plugin = await this.provider(change.pluginId);
    const checked = checkChannelSettings(plugin.manifest, change.settings, { common: false });
    assertNoWiderEgress(plugin, checked.settings);
    // The provider's own check (config_validator) of what the project would use, before saving.
    await this.plugins.validateProjectConfig(plugin.id, projectId, {
      settings: checked.settings,
      secrets: await this.projectConfig.candidateSecrets(projectId, plugin.id, checked.secrets),
    });
    const before = await this.repository.get(projectId);
    const same = before?.pluginId === plugin.id ? before : null;
    await this.projectConfig.save(projectId, plugin.id, checked);
    await this.repository.save({
      projectId,
      pluginId: plugin.id,
      defaultTarget:
        change.defaultTarget === undefined ? (same?.defaultTarget ?? null) : change.defaultTarget,
      trackerClosedAction:
        change.trackerClosedAction ?? same?.trackerClosedAction ?? ('none' as const),
      syncStatusToTracker: change.syncStatusToTracker ?? same?.syncStatusToTracker ?? true,
    });
    return this.view(projectId);
  }

  /** A new webhook secret, answered once; the previous one stays valid a day. */
  async rotate(
    access: AccessContext,
    projectId: string,
  ): Promise<{ secret: string; webhookUrl: string; previousValidUntil: Date | null }> {
    await this.projectConfig.assertVisible(access, projectId);
    this.projectConfig.assertWriter(access, projectId);
    const secret = newWebhookSecret();
    const rotated = await this.repository.rotate(
      projectId,
      hashWebhookSecret(secret),
      PREVIOUS_SECRET_TTL_SECONDS,
    );
    if (!rotated) throw new TicketsError('ticket_provider_not_configured');
    return {
      secret,
      webhookUrl: webhookPath(projectId, secret),
      previousValidUntil: rotated.previousValidUntil,
    };
  }

  private async view(projectId: string): Promise<TicketConfigView> {
    const stored = await this.repository.get(projectId);
    const values = stored
      ? await this.projectConfig.view(projectId, stored.pluginId)
      : { settings: {}, secretSettingsSet: [] };
    return {
      projectId,
      pluginId: stored?.pluginId ?? null,
      settings: values.settings,
      secretSettingsSet: values.secretSettingsSet,
      defaultTarget: stored?.defaultTarget ?? null,
      trackerClosedAction: stored?.trackerClosedAction ?? 'none',
      syncStatusToTracker: stored?.syncStatusToTracker ?? true,
      webhook: {
        secretSet: Boolean(stored?.webhookSecretHash),
        rotatedAt: stored?.webhookRotatedAt ?? null,
        previousValidUntil: stored?.previousValidUntil ?? null,
        urlTemplate: webhookPath(projectId),
      },
    };
  }

  /** An installed ticketing provider (enabled or not: a disabled one can be prepared). */
  private async provider(pluginId: string): Promise<InstalledPlugin> {
    const plugin = await this.plugins.get(pluginId).catch(() => undefined);
    if (!plugin?.capabilities.includes('ticketing_provider')) {
      throw new InputValidationError([
        { field: 'plugin_id', problems: ['not an installed ticketing provider'] },
      ]);
    }
    return plugin;
  }
}

/**
 * A project's URL setting must name a host the installation may already reach (its manifest's
 * allowed hosts and the hosts of the administrator's URL settings): a project admin cannot
 * widen a plugin's egress.
 */
function assertNoWiderEgress(plugin: InstalledPlugin, settings: Record<string, unknown>): void {
  const permitted = new Set(permittedHostsOf(plugin.manifest, plugin.settings));
  const problems: { field: string; problems: string[] }[] = [];
  for (const setting of plugin.manifest.settings) {
    const value = settings[setting.name];
    if (setting.type !== 'url' || typeof value !== 'string') continue;
    const [host] = permittedHostsOf(
      { ...plugin.manifest, allowed_hosts: [] },
      {
        [setting.name]: value,
      },
    );
    if (host === undefined || !permitted.has(host)) {
      problems.push({
        field: `settings.${setting.name}`,
        problems: ['must name a host the installation is permitted to reach'],
      });
    }
  }
  if (problems.length > 0) throw new InputValidationError(problems);
}
