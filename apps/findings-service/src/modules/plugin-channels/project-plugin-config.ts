import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import { PluginSecretBox } from '../plugins/installed-plugins/plugin-secret-box';
import { ProjectsError } from '../projects/projects.errors';
import { PluginChannelsRepository } from './plugin-channels.repository';

/** A project's settings of one plugin as shown: secret values never, only which are set. */
export interface ProjectPluginConfigView {
  pluginId: string;
  projectId: string;
  settings: Record<string, unknown>;
  /** Names of the secret settings that have a value (values are never returned). */
  secretSettingsSet: string[];
}

/**
 * A project's stored settings of a plugin — a channel's or a WebAssembly plugin's per-project
 * values, one row each: who may see them, how a change keeps the secrets it does not name,
 * and the view. Shared by the channel routes and the per-project settings routes.
 */
@Injectable()
export class ProjectPluginConfig {
  constructor(
    private readonly repository: PluginChannelsRepository,
    private readonly secrets: PluginSecretBox,
  ) {}

  /** A member (reader) or a notifications manager of an existing project; else 404. */
  async assertVisible(access: AccessContext, projectId: string): Promise<void> {
    const member =
      access.can('read_findings', { projectId }) ||
      access.can('manage_notifications', { projectId });
    if (!member || !(await this.repository.projectExists(projectId))) {
      throw new ProjectsError('project_not_found');
    }
  }

  assertWriter(access: AccessContext, projectId: string): void {
    if (!access.can('manage_notifications', { projectId })) {
      throw new ProjectsError('access_denied');
    }
  }

  /** The project's secrets as a save of `changed` would store them (the others kept). */
  async candidateSecrets(
    projectId: string,
    pluginId: string,
    changed: Record<string, string>,
  ): Promise<Record<string, string>> {
    const stored = await this.repository.config(projectId, pluginId);
    return { ...this.secrets.open(stored?.secretSettings ?? null), ...changed };
  }

  /** Stores the settings; secrets not named in the change keep their stored values. */
  async save(
    projectId: string,
    pluginId: string,
    change: { settings: Record<string, unknown>; secrets: Record<string, string> },
  ): Promise<void> {
    const secrets = await this.candidateSecrets(projectId, pluginId, change.secrets);
    await this.repository.save(
      projectId,
      pluginId,
      change.settings,
      this.secrets.seal(secrets),
      new Date(),
    );
  }

  async view(projectId: string, pluginId: string): Promise<ProjectPluginConfigView> {
    const config = await this.repository.config(projectId, pluginId);
    return {
      pluginId,
      projectId,
      settings: config?.settings ?? {},
      secretSettingsSet: Object.keys(this.secrets.open(config?.secretSettings ?? null)).sort(),
    };
  }
}
