import { Injectable } from '@nestjs/common';
import {
  HostCallDenied,
  HostCallNotConfigured,
  type PluginEventContext,
  type PluginSecretsPort,
} from '../../plugin-runner-client/host-call-ports';
import { parseManifest } from '@platform/plugin-sdk';
import { InstalledPluginsRepository } from './installed-plugins.repository';
import { PluginSecretBox } from './plugin-secret-box';

/**
 * Answers the runner's `get-secret` from the installation's sealed secret settings. A name the
 * manifest does not mark secret is denied. Project secrets belong to the per-project plugin
 * configuration (channels), not to this store: `get-project-secret` is not configured here.
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

  getProjectSecret(): Promise<string | undefined> {
    return Promise.reject(new HostCallNotConfigured('project plugin secrets'));
  }
}
