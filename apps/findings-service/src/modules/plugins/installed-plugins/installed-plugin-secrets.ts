import { Injectable } from '@nestjs/common';
import {
  HostCallDenied,
  type PluginEventContext,
  type PluginSecretsPort,
} from '../../plugin-runner-client/host-call-ports';
import { parseManifest } from '@platform/plugin-sdk';
import { InstalledPluginsRepository } from './installed-plugins.repository';
import { PluginSecretBox } from './plugin-secret-box';

/**
 * Answers the runner's `get-secret` from the installation's sealed secret settings. A name the
 * manifest does not mark secret is denied. `get-project-secret` answers from the event's
 * project's configuration of the plugin (project channel settings, docs/plugins/channels.md):
 * only names the manifest marks secret and per_project; none when the project set no value.
 */
@Injectable()
export class InstalledPluginSecrets implements PluginSecretsPort {
  constructor(
    private readonly repository: InstalledPluginsRepository,
    private readonly box: PluginSecretBox,
  ) {}

  async getSecret(context: PluginEventContext, name: string): Promise<string | undefined> {
    const row = await this.repository.findById(context.pluginId);
    if (!row || row.artifactSha256 !== context.versionDigest) {
      throw new HostCallDenied('no such installed plugin version');
    }
    const setting = parseManifest(row.manifest).settings.find((s) => s.name === name);
    if (!setting?.secret) throw new HostCallDenied(`${name} is not a secret setting`);
    return this.box.open(row.secretSettings)[name];
  }

  async getProjectSecret(context: PluginEventContext, name: string): Promise<string | undefined> {
    const row = await this.repository.findById(context.pluginId);
    if (!row || row.artifactSha256 !== context.versionDigest) {
      throw new HostCallDenied('no such installed plugin version');
    }
    const setting = parseManifest(row.manifest).settings.find((s) => s.name === name);
    if (!setting?.secret || !setting.per_project) {
      throw new HostCallDenied(`${name} is not a per-project secret setting`);
    }
    const sealed = await this.repository.projectSecretSettings(context.projectId, context.pluginId);
    return this.box.open(sealed)[name];
  }
}
