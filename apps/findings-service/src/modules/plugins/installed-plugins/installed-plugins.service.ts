import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { artifactDigest, type PluginCapability, type PluginManifest } from '@platform/plugin-sdk';
import { HostCallDenied, type PluginSecretsPort } from '../../plugin-runner-client/host-call-ports';
import {
  PluginRunnerClient,
  scrubSecrets,
  type PluginInvocationResult,
} from '../../plugin-runner-client/plugin-runner.client';
import {
  answerRefusalOf,
  pluginAnswerRefusals,
  shownPluginText,
  type PluginAnswerRefusals,
} from '../../plugin-runner-client/plugin-answer-refusals';
import { FindingsMetrics } from '../../../app/metrics/findings-metrics';
import { PluginRunnerClientError } from '../../plugin-runner-client/plugin-runner-client.errors';
import { PluginsError } from '../plugins.errors';
import type { EntityManager } from 'typeorm';
import type { InstalledPluginEntity } from './installed-plugin.entity';
import type {
  EnsureLoadedOptions,
  InstalledPlugin,
  InstalledPluginCatalog,
  InstalledPluginForRun,
  LoadedGeneration,
} from './installed-plugin';
import { installedManifest } from './installed-manifest';
import { InstalledPluginsRepository } from './installed-plugins.repository';
import { PluginSecretBox } from './plugin-secret-box';

/** Hosts the plugin may reach: its manifest's allowed hosts and the hosts of its url settings. */
export function permittedHostsOf(
  manifest: PluginManifest,
  settings: Record<string, unknown>,
): string[] {
  const hosts = new Set(manifest.allowed_hosts);
  for (const setting of manifest.settings) {
    const value = settings[setting.name];
    if (setting.type !== 'url' || typeof value !== 'string' || value === '') continue;
    try {
      const url = new URL(value);
      const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
      // A non-default port belongs to the permission: the runner matches host and port.
      hosts.add(url.port ? `${host.includes(':') ? `[${host}]` : host}:${url.port}` : host);
    } catch {
      // refused at save; an old value that no longer parses permits nothing
    }
  }
  return [...hosts];
}

/** The project of a configuration check: installation settings belong to no project. */
const NO_PROJECT = '00000000-0000-0000-0000-000000000000';
const MAX_CONFIG_PROBLEMS = 50;
const MAX_PROBLEM_TEXT = 500;

/** A configuration a save would store: non-secret settings and the secret values. */
export interface CandidateConfig {
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
  /**
   * A project's candidate (its settings PUT): its secrets, answered first by `get-secret` and
   * alone by `get-project-secret`, as an event of that project would see them; the problems
   * are named `settings.<name>` like the route's own.
   */
  project?: { id: string; secrets: Record<string, string> };
}

/**
 * The validator's `list<config-problem>`, per setting (the whole configuration as `settings`),
 * and how many problems it named: the first MAX_CONFIG_PROBLEMS are listed (texts cut, made
 * safe to show), the count covers them all. A list the runner shortened to fit its answer
 * limit arrives as `{truncated, total, items}`.
 */
function configProblems(
  detail: unknown,
): { fields: { field: string; problems: string[] }[]; total: number } | undefined {
  const wrapped = detail as { truncated?: unknown; total?: unknown; items?: unknown } | null;
  const list = wrapped?.truncated === true && Array.isArray(wrapped.items) ? wrapped.items : detail;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const total = list === detail ? list.length : Math.max(list.length, Number(wrapped?.total) || 0);
  const fields = new Map<string, string[]>();
  for (const item of list.slice(0, MAX_CONFIG_PROBLEMS) as unknown[]) {
    const problem = item as { setting?: unknown; message?: unknown } | null;
    if (typeof problem?.setting !== 'string' || typeof problem.message !== 'string') {
      return undefined;
    }
    const field = problem.setting === '' ? 'settings' : shownPluginText(problem.setting, 100);
    fields.set(field, [
      ...(fields.get(field) ?? []),
      shownPluginText(problem.message, MAX_PROBLEM_TEXT),
    ]);
  }
  return { fields: [...fields].map(([field, problems]) => ({ field, problems })), total };
}

/**
 * Reads installed plugins for the rest of the service and keeps the runner's loaded set in
 * step (InstalledPluginCatalog). Loads are remembered per process by digest; a runner that
 * answers `not_loaded` (it restarted) is re-loaded with `ensureLoaded(id, { force: true })`.
 */
@Injectable()
export class InstalledPluginsService implements InstalledPluginCatalog {
  private readonly logger = new Logger('InstalledPlugins');
  private readonly loaded = new Map<string, string>();
  /** Loads under way per installation, shared by concurrent callers. */
  private readonly loading = new Map<string, Promise<void>>();
  /** Completed loads per installation (see ensureLoaded's `seenGeneration`). */
  private readonly generations = new Map<string, number>();
  private readonly refusals: PluginAnswerRefusals;

  constructor(
    private readonly repository: InstalledPluginsRepository,
    private readonly secrets: PluginSecretBox,
    @Inject(PluginRunnerClient) private readonly runner: PluginRunnerClient,
    metrics: FindingsMetrics,
  ) {
    this.refusals = pluginAnswerRefusals(metrics.registry);
  }

  async list(): Promise<InstalledPlugin[]> {
    return (await this.repository.list()).map((row) => this.view(row));
  }

  async listEnabledByCapability(capability: PluginCapability): Promise<InstalledPlugin[]> {
    return (await this.repository.listEnabledByCapability(capability)).map((row) => this.view(row));
  }

  async get(id: string): Promise<InstalledPlugin> {
    return this.view(await this.row(id));
  }

  async getForRun(id: string): Promise<InstalledPluginForRun> {
    const row = await this.row(id);
    const view = this.view(row);
    return {
      ...view,
      secretSettings: this.secrets.open(row.secretSettings),
      permittedHosts: permittedHostsOf(view.manifest, view.settings),
    };
  }

  /**
   * Loads the installed version into the runner unless this process already did. Refuses a
   * disabled installation, a revoked artifact and stored bytes whose digest changed.
   *
   * Concurrent callers share one load per installation (a Load of a native plugin starts a new
   * process, so 32 deliveries each loading would keep replacing it). `force` (the runner
   * answered `not_loaded`) reloads only when nobody has loaded since the caller's
   * `seenGeneration` — the generation its own `ensureLoaded` returned — so many calls that saw
   * one runner restart reload once.
   *
   * `knownDigest`: the caller read the installation (enabled, at this digest) at the start of
   * its event; when this process has that version loaded and no load is under way, the row is
   * not read again.
   */
  async ensureLoaded(id: string, options: EnsureLoadedOptions = {}): Promise<LoadedGeneration> {
    const known = options.knownDigest;
    if (known && !options.force && !this.loading.has(id) && this.loaded.get(id) === known) {
      return { versionDigest: known, generation: this.generations.get(id) ?? 0 };
    }
    const row = await this.row(id);
    if (!row.enabled) throw new PluginsError('plugin_disabled', { plugin_id: id });
    const pending = this.loading.get(id);
    if (pending) {
      await pending;
      return this.ensureLoaded(id, {});
    }
    const generation = this.generations.get(id) ?? 0;
    const stale =
      options.force === true &&
      (options.seenGeneration === undefined || options.seenGeneration === generation);
    if (!stale && this.loaded.get(id) === row.artifactSha256) {
      return { versionDigest: row.artifactSha256, generation };
    }
    const load = this.loadRow(row).finally(() => this.loading.delete(id));
    this.loading.set(id, load);
    await load;
    return { versionDigest: row.artifactSha256, generation: this.generations.get(id) ?? 0 };
  }

  /**
   * Loads this row's version in the runner (a reload when one is loaded). `manager`: read the
   * source and artifact inside that transaction (a version being applied, not yet committed).
   */
  async loadRow(row: InstalledPluginEntity, manager?: EntityManager): Promise<void> {
    const source = row.marketplaceId
      ? await this.repository.source(row.marketplaceId, manager)
      : null;
    if (source?.revokedDigests.includes(row.artifactSha256)) {
      throw new PluginsError('plugin_artifact_revoked', { digest: row.artifactSha256 });
    }
    const artifact = await this.repository.artifact(row.artifactSha256, manager);
    if (!artifact || artifactDigest(artifact) !== row.artifactSha256) {
      throw new PluginsError('plugin_artifact_invalid', { problem: 'digest_mismatch' });
    }
    const manifest = installedManifest(row);
    try {
      await this.runner.load({
        pluginId: row.id,
        version: row.version,
        versionDigest: row.artifactSha256,
        runtime: row.runtime,
        manifest: row.manifest,
        signature: row.signature ? Buffer.from(row.signature, 'base64') : Buffer.alloc(0),
        source: {
          id: source?.id ?? 'sideload',
          publicKey: source?.publicKey ?? '',
          allowsNative: Boolean(source?.allowsNative && source.publicKey),
        },
        artifact,
        permittedHosts: permittedHostsOf(manifest, row.settings),
      });
    } catch (error) {
      throw this.runnerError(error);
    }
    this.loaded.set(row.id, row.artifactSha256);
    this.generations.set(row.id, (this.generations.get(row.id) ?? 0) + 1);
  }

  /**
   * Capability `config_validator` (docs/plugins/installation.md, "Configuration check"): the
   * plugin's own `validate` runs in the runner on the candidate configuration before a save is
   * stored. Its `get-secret` answers the candidate secrets. An enabled installation is asked on
   * its loaded version; a disabled one is loaded for this call only and unloaded after it.
   * Problems -> `plugin_config_invalid` (422, per setting in `fields`); a validator that traps,
   * runs past its deadline or is refused -> `plugin_config_check_failed` (422); a runner that
   * cannot be reached -> `plugin_runner_unavailable` (503). Nothing is stored in any of them.
   * Without the capability nothing is called.
   */
  async validateConfig(row: InstalledPluginEntity, candidate: CandidateConfig): Promise<void> {
    const manifest = installedManifest(row);
    if (!manifest.capabilities.includes('config_validator')) return;
    const secrets: PluginSecretsPort = {
      getSecret: (_context, name) => {
        const setting = manifest.settings.find((s) => s.name === name);
        if (!setting?.secret)
          return Promise.reject(new HostCallDenied(`${name} is not a secret setting`));
        return Promise.resolve(candidate.project?.secrets[name] ?? candidate.secrets[name]);
      },
      getProjectSecret: (_context, name) =>
        candidate.project
          ? Promise.resolve(candidate.project.secrets[name])
          : Promise.reject(new HostCallDenied('a configuration check has no project')),
    };
    const invoke = () =>
      this.runner.invoke({
        context: {
          pluginId: row.id,
          versionDigest: row.artifactSha256,
          projectId: candidate.project?.id ?? NO_PROJECT,
          eventId: `config-check:${randomUUID()}`,
        },
        capability: 'config_validator',
        operation: 'validate',
        payload: {},
        settings: candidate.settings,
        secrets,
      });
    let result: PluginInvocationResult;
    try {
      if (row.enabled) {
        const { generation } = await this.ensureLoaded(row.id);
        result = await invoke();
        if (!result.ok && result.error.code === 'not_loaded') {
          await this.ensureLoaded(row.id, { force: true, seenGeneration: generation });
          result = await invoke();
        }
      } else {
        // Loaded for this call only (its URL settings as the save would store them).
        await this.loadRow({ ...row, settings: candidate.settings } as InstalledPluginEntity);
        try {
          result = await invoke();
        } finally {
          await this.unload(row.id);
        }
      }
    } catch (error) {
      throw this.runnerError(error);
    }
    if (result.ok) return;
    // What the plugin wrote is shown to the administrator: never with its secrets in it, the
    // stored ones or the candidate ones of this save.
    const secretValues = [
      ...Object.values(this.secrets.open(row.secretSettings)),
      ...Object.values(candidate.secrets),
      ...Object.values(candidate.project?.secrets ?? {}),
    ].filter((v): v is string => typeof v === 'string');
    const error = scrubSecrets(result.error, secretValues);
    const refused = answerRefusalOf({ ...result, error });
    if (refused) this.refusals.count(row.id, refused.reason);
    const named = error.code === 'plugin_error' ? configProblems(error.detail) : undefined;
    const found =
      named && candidate.project
        ? {
            ...named,
            fields: named.fields.map((f) => ({
              ...f,
              field: f.field === 'settings' ? f.field : `settings.${f.field}`,
            })),
          }
        : named;
    if (found) {
      const listed = found.fields.reduce((n, f) => n + f.problems.length, 0);
      const more = found.total > listed ? `; and ${found.total - listed} more` : '';
      throw new PluginsError('plugin_config_invalid', {
        problems: `${found.fields.map((f) => `${f.field}: ${f.problems.join('; ')}`).join('; ')}${more}`,
        fields: found.fields,
        problem: `${found.total} problems${found.total > listed ? `, the first ${listed} listed` : ''}`,
      });
    }
    throw new PluginsError('plugin_config_check_failed', {
      reason: shownPluginText(
        refused ? `${refused.reason}: ${refused.problem}` : `${error.code}: ${error.message}`,
        MAX_PROBLEM_TEXT,
      ),
    });
  }

  /**
   * A project's candidate settings of installation `id`, checked by the plugin's own
   * `validate` (capability config_validator) before the project's PUT stores them: the
   * installation's settings overridden by the project's, and the project's secrets before the
   * installation's. The same answers as validateConfig.
   */
  async validateProjectConfig(
    id: string,
    projectId: string,
    candidate: { settings: Record<string, unknown>; secrets: Record<string, string> },
  ): Promise<void> {
    const row = await this.row(id);
    await this.validateConfig(row, {
      settings: { ...row.settings, ...candidate.settings },
      secrets: this.secrets.open(row.secretSettings),
      project: { id: projectId, secrets: candidate.secrets },
    });
  }

  /** Stops the installation in the runner (disable, or before a version change). */
  async unload(id: string): Promise<void> {
    this.loaded.delete(id);
    try {
      await this.runner.unload(id);
    } catch (error) {
      // a runner that is down has nothing loaded; the next load starts clean
      this.logger.warn(`unload of ${id} failed: ${(error as Error).message}`);
    }
  }

  /** Forgets what this process loaded for `id` (its version changed). */
  forget(id: string): void {
    this.loaded.delete(id);
  }

  runnerError(error: unknown): Error {
    if (!(error instanceof PluginRunnerClientError)) return error as Error;
    const unavailable = ['runner_not_configured', 'runner_unavailable', 'runner_timeout'];
    if (unavailable.includes(error.code) || error.code === 'runner_stopping') {
      return new PluginsError('plugin_runner_unavailable', { reason: error.code });
    }
    if (error.code === 'signature_invalid') return new PluginsError('plugin_signature_invalid');
    if (error.code === 'native_unsigned_source' || error.code === 'native_not_permitted') {
      return new PluginsError('plugin_native_not_permitted');
    }
    // The runner's code and its words (e.g. unsupported_imports: which imports), for the admin.
    return new PluginsError('plugin_artifact_invalid', {
      problem: `${error.code}: ${error.message}`.slice(0, 500),
      reason: error.code,
    });
  }

  private async row(id: string): Promise<InstalledPluginEntity> {
    const row = await this.repository.findById(id);
    if (!row) throw new PluginsError('installed_plugin_not_found');
    return row;
  }

  view(row: InstalledPluginEntity): InstalledPlugin {
    return {
      id: row.id,
      sourceType: row.sourceType,
      marketplaceId: row.marketplaceId,
      catalogPluginId: row.catalogPluginId,
      runtime: row.runtime,
      enabled: row.enabled,
      version: row.version,
      artifactSha256: row.artifactSha256,
      capabilities: row.capabilities,
      manifest: installedManifest(row),
      settings: row.settings,
      secretSettingsSet: Object.keys(this.secrets.open(row.secretSettings)).sort(),
      pendingVersion: row.pendingVersion,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }
}
