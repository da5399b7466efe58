import { Injectable } from '@nestjs/common';
import type { PluginManifest } from '@platform/plugin-sdk';
import {
  HostCallDenied,
  openedSecrets,
  type PluginEventContext,
  type PluginSecretsPort,
} from '../../plugin-runner-client/host-call-ports';
import { installedManifest } from './installed-manifest';
import { InstalledPluginsRepository } from './installed-plugins.repository';
import { PluginSecretBox } from './plugin-secret-box';

/**
 * Answers the runner's `get-secret` from the installation's sealed secret settings. A name the
 * manifest does not mark secret is denied. `get-project-secret` answers from the event's
 * project's configuration of the plugin (project channel settings, docs/plugins/channels.md):
 * only names the manifest marks secret and per_project; none when the project set no value.
 * An event that carries the installation as its service read it (`context.installation`, a
 * notification delivery's claim) is answered from that, without reading the row again.
 */
@Injectable()
export class InstalledPluginSecrets implements PluginSecretsPort {
  constructor(
    private readonly repository: InstalledPluginsRepository,
    private readonly box: PluginSecretBox,
  ) {}

  async getSecret(context: PluginEventContext, name: string): Promise<string | undefined> {
    const installation = await this.installation(context);
    const setting = installation.manifest.settings.find((s) => s.name === name);
    if (!setting?.secret) throw new HostCallDenied(`${name} is not a secret setting`);
    const known = context.installation;
    return known
      ? openedSecrets(known, 'installation', (sealed) => this.box.open(sealed))[name]
      : this.box.open(installation.secretSettings)[name];
  }

  async getProjectSecret(context: PluginEventContext, name: string): Promise<string | undefined> {
    const installation = await this.installation(context);
    const setting = installation.manifest.settings.find((s) => s.name === name);
    if (!setting?.secret || !setting.per_project) {
      throw new HostCallDenied(`${name} is not a per-project secret setting`);
    }
    const known = context.installation;
    if (known) return openedSecrets(known, 'project', (sealed) => this.box.open(sealed))[name];
    const sealed = await this.repository.projectSecretSettings(context.projectId, context.pluginId);
    return this.box.open(sealed)[name];
  }

  private async installation(
    context: PluginEventContext,
  ): Promise<{ manifest: PluginManifest; secretSettings: string | null }> {
    const known = context.installation;
    if (known) {
      if (known.artifactSha256 !== context.versionDigest) {
        throw new HostCallDenied('no such installed plugin version');
      }
      return known;
    }
    const row = await this.repository.findById(context.pluginId);
    if (!row || row.artifactSha256 !== context.versionDigest) {
      throw new HostCallDenied('no such installed plugin version');
    }
    return { manifest: installedManifest(row), secretSettings: row.secretSettings };
  }
}
