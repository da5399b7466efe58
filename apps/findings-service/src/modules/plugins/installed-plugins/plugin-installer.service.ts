import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  SUPPORTED_WIT_VERSIONS,
  satisfiesServiceVersion,
  type PluginCapability,
  type PluginRuntime,
} from '@platform/plugin-sdk';
import { Clock } from '../../../app/clock';
import type { Actor } from '../../action-log/finding-action';
import { PluginAuditLog } from '../audit/plugin-audit.log';
import { compareSemver } from '../catalog/catalog-document';
import {
  PluginCatalogService,
  verifyVersion,
  type VerifiedPluginVersion,
} from '../catalog/plugin-catalog.service';
import type { PluginSourceEntity } from '../marketplaces/plugin-source.entity';
import { PluginsError } from '../plugins.errors';
import { pluginServiceVersion } from '../service-version';
import type { InstalledPluginEntity, PendingPluginVersion } from './installed-plugin.entity';
import type { InstalledPlugin } from './installed-plugin';
import { InstalledPluginsRepository } from './installed-plugins.repository';
import { InstalledPluginsService } from './installed-plugins.service';
import { applySettings, missingRequired, type SettingsInput } from './plugin-settings';
import { PluginSecretBox } from './plugin-secret-box';

export interface MarketplaceInstall {
  sourceType: string;
  marketplaceId: string;
  catalogPluginId: string;
  runtime?: PluginRuntime;
  version?: string;
}

export interface SideloadInstall {
  module: Buffer;
  description: Buffer;
  runtime?: PluginRuntime;
}

export interface VersionChange {
  /** A version from the catalog's history; the newest when absent. */
  version?: string;
  /** Needed to install a version older than the installed one. */
  confirmDowngrade?: boolean;
}

/**
 * The install lifecycle (spec "Plugins and administration"; docs/plugins/installation.md):
 * install from a source or by sideload, settings, enable/disable, update to the newest or a
 * concrete version, downgrade with confirmation, capability widening held until acknowledged.
 * Every refusal happens before anything is written, so a refused call changes nothing. An
 * enabled installation's new version is loaded in the runner inside the transaction: a
 * version the runner refuses is not recorded.
 */
@Injectable()
export class PluginInstallerService {
  constructor(
    private readonly repository: InstalledPluginsRepository,
    private readonly catalogs: PluginCatalogService,
    private readonly plugins: InstalledPluginsService,
    private readonly secrets: PluginSecretBox,
    private readonly audit: PluginAuditLog,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async install(input: MarketplaceInstall, actor: Actor): Promise<InstalledPlugin> {
    if (input.sourceType === 'sideload') throw new PluginsError('plugin_sideload_on_json_route');
    const source = await this.activeSource(input.marketplaceId);
    const document = await this.catalogs.fetch(source);
    const { version: entry } = this.catalogs.find(document, input.catalogPluginId, input.version);
    const existing = await this.repository.findByCatalogPluginId(input.catalogPluginId);
    if (existing) this.refuseReinstall(existing, entry.version);
    this.checkRuntime(input.runtime ?? 'wasm', entry.runtime, entry.capabilities, source);
    this.checkRevoked(source, entry.artifact_sha256);
    this.checkServiceVersion(entry.min_service_version);
    const verified = await this.catalogs.download(source, input.catalogPluginId, entry);
    this.checkVerified(verified, input.runtime ?? 'wasm', source);
    return this.insert('marketplace', source, verified, actor);
  }

  async sideload(input: SideloadInstall, actor: Actor): Promise<InstalledPlugin> {
    const verified = verifyVersion({
      artifact: input.module,
      manifestBytes: input.description,
      signature: null,
      publicKey: null,
    });
    const runtime = input.runtime ?? verified.manifest.runtime;
    this.checkVerified(verified, runtime, null);
    const existing = await this.repository.findByCatalogPluginId(verified.manifest.id);
    if (!existing) return this.insert('sideload', null, verified, actor);
    if (existing.sourceType !== 'sideload') {
      throw new PluginsError('plugin_already_installed', { id: existing.id });
    }
    const order = compareSemver(verified.manifest.version, existing.version);
    if (order < 0) {
      throw new PluginsError('plugin_version_older', {
        version: verified.manifest.version,
        installed: existing.version,
      });
    }
    if (order === 0 && verified.digest === existing.artifactSha256) {
      throw new PluginsError('plugin_already_installed', { id: existing.id });
    }
    return this.changeVersion(existing.id, null, verified, actor);
  }

  async updateSettings(id: string, input: SettingsInput, actor: Actor): Promise<InstalledPlugin> {
    await this.repository.transaction(async (manager) => {
      const row = await this.lock(manager, id);
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
        await this.loadInside(manager, id);
      }
    });
    return this.plugins.get(id);
  }

  async setEnabled(id: string, enabled: boolean, actor: Actor): Promise<InstalledPlugin> {
    await this.repository.transaction(async (manager) => {
      const row = await this.lock(manager, id);
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
      if (enabled) await this.loadInside(manager, id);
    });
    if (!enabled) await this.plugins.unload(id);
    return this.plugins.get(id);
  }

  /** Update to the newest version, or install a concrete version of the catalog's history. */
  async changeFromCatalog(
    id: string,
    change: VersionChange,
    actor: Actor,
  ): Promise<InstalledPlugin> {
    const row = await this.plugins.get(id);
    if (row.sourceType !== 'marketplace' || !row.marketplaceId) {
      throw new PluginsError('plugin_not_in_catalog', { catalog_plugin_id: row.catalogPluginId });
    }
    const source = await this.activeSource(row.marketplaceId);
    const document = await this.catalogs.fetch(source);
    const { version: entry } = this.catalogs.find(document, row.catalogPluginId, change.version);
    if (compareSemver(entry.version, row.version) < 0 && !change.confirmDowngrade) {
      throw new PluginsError('plugin_downgrade_unconfirmed', {
        version: entry.version,
        installed: row.version,
      });
    }
    this.checkRuntime(row.runtime, entry.runtime, entry.capabilities, source);
    this.checkRevoked(source, entry.artifact_sha256);
    this.checkServiceVersion(entry.min_service_version);
    const verified = await this.catalogs.download(source, row.catalogPluginId, entry);
    this.checkVerified(verified, row.runtime, source);
    return this.changeVersion(id, source, verified, actor);
  }

  /** Applies the held version whose wider capabilities an administrator now accepts. */
  async acknowledge(id: string, actor: Actor): Promise<InstalledPlugin> {
    await this.repository.transaction(async (manager) => {
      const row = await this.lock(manager, id);
      const pending = row.pendingVersion;
      if (!pending) throw new PluginsError('plugin_no_pending_change');
      const source = row.marketplaceId ? await this.repository.source(row.marketplaceId) : null;
      this.checkRevoked(source, pending.artifact_sha256);
      const artifact = await this.repository.artifact(pending.artifact_sha256);
      if (!artifact) throw new PluginsError('plugin_artifact_invalid', { problem: 'missing' });
      const verified = verifyVersion({
        artifact,
        manifestBytes: Buffer.from(pending.manifest, 'base64'),
        signature: pending.signature,
        publicKey: source?.publicKey ?? null,
      });
      await this.apply(manager, row, verified, null);
      await this.audit.record(
        {
          actor,
          action: 'plugin.capability_change_acknowledged',
          installedPluginId: id,
          details: {
            version: pending.version,
            from_version: row.version,
            added_capabilities: pending.added_capabilities,
          },
        },
        manager,
      );
    });
    return this.plugins.get(id);
  }

  private async changeVersion(
    id: string,
    source: PluginSourceEntity | null,
    verified: VerifiedPluginVersion,
    actor: Actor,
  ): Promise<InstalledPlugin> {
    let held: PendingPluginVersion | null = null;
    await this.repository.transaction(async (manager) => {
      const row = await this.lock(manager, id);
      const added = verified.manifest.capabilities.filter((c) => !row.capabilities.includes(c));
      await this.repository.saveArtifact(manager, verified.digest, verified.artifact);
      if (added.length > 0) {
        held = this.pendingOf(verified, added);
        await this.repository.update(manager, id, { pendingVersion: held });
        await this.audit.record(
          {
            actor,
            action: 'plugin.update_held',
            installedPluginId: id,
            details: { version: held.version, added_capabilities: added },
          },
          manager,
        );
        return;
      }
      await this.apply(manager, row, verified, source);
      await this.audit.record(
        {
          actor,
          action: 'plugin.updated',
          installedPluginId: id,
          details: {
            from_version: row.version,
            version: verified.manifest.version,
            artifact_sha256: verified.digest,
          },
        },
        manager,
      );
    });
    const pending = held as PendingPluginVersion | null;
    if (pending) {
      throw new PluginsError('plugin_capability_change_pending', {
        version: pending.version,
        added: pending.added_capabilities.join(', '),
      });
    }
    return this.plugins.get(id);
  }

  private async apply(
    manager: EntityManager,
    row: InstalledPluginEntity,
    verified: VerifiedPluginVersion,
    _source: PluginSourceEntity | null,
  ): Promise<void> {
    await this.repository.saveArtifact(manager, verified.digest, verified.artifact);
    await this.repository.update(manager, row.id, {
      version: verified.manifest.version,
      artifactSha256: verified.digest,
      manifest: verified.manifestBytes,
      signature: verified.signature,
      capabilities: verified.manifest.capabilities,
      pendingVersion: null,
    });
    this.plugins.forget(row.id);
    if (row.enabled) await this.loadInside(manager, row.id);
  }

  private async insert(
    sourceType: 'marketplace' | 'sideload',
    source: PluginSourceEntity | null,
    verified: VerifiedPluginVersion,
    actor: Actor,
  ): Promise<InstalledPlugin> {
    const m = verified.manifest;
    const id = await this.repository.transaction(async (manager) => {
      await this.repository.saveArtifact(manager, verified.digest, verified.artifact);
      const row = await this.repository.insert(manager, {
        sourceType,
        marketplaceId: source?.id ?? null,
        catalogPluginId: m.id,
        runtime: m.runtime,
        enabled: false,
        version: m.version,
        artifactSha256: verified.digest,
        manifest: verified.manifestBytes,
        signature: verified.signature,
        capabilities: m.capabilities,
        settings: {},
        secretSettings: null,
        pendingVersion: null,
        installedByUserId: actor.type === 'user' ? actor.id : null,
      });
      if (!row) throw new PluginsError('plugin_already_installed');
      await this.audit.record(
        {
          actor,
          action: 'plugin.installed',
          installedPluginId: row.id,
          marketplaceId: source?.id ?? null,
          details: {
            source_type: sourceType,
            catalog_plugin_id: m.id,
            version: m.version,
            artifact_sha256: verified.digest,
            runtime: m.runtime,
            capabilities: m.capabilities,
          },
        },
        manager,
      );
      return row.id;
    });
    return this.plugins.get(id);
  }

  /** Loads the row as it now stands in `manager`'s transaction (read back through it). */
  private async loadInside(manager: EntityManager, id: string): Promise<void> {
    const row = await this.repository.findById(id, manager);
    if (!row) return;
    await this.plugins.loadRow(row, manager);
  }

  private async lock(manager: EntityManager, id: string): Promise<InstalledPluginEntity> {
    const row = await this.repository.lockById(manager, id);
    if (!row) throw new PluginsError('installed_plugin_not_found');
    return row;
  }

  private async activeSource(id: string): Promise<PluginSourceEntity> {
    const source = await this.repository.source(id);
    if (!source) throw new PluginsError('plugin_source_not_found');
    if (!source.isActive) throw new PluginsError('plugin_source_inactive');
    return source;
  }

  private refuseReinstall(existing: InstalledPluginEntity, version: string): never {
    if (compareSemver(version, existing.version) < 0) {
      throw new PluginsError('plugin_version_older', { version, installed: existing.version });
    }
    throw new PluginsError('plugin_already_installed', { id: existing.id });
  }

  /**
   * Runtime rules: the requested runtime must be the plugin's; notification channels run
   * native only, and native needs a signed source carrying allows_native; nothing else runs
   * native (a ticketing provider never).
   */
  private checkRuntime(
    requested: PluginRuntime,
    runtime: PluginRuntime,
    capabilities: PluginCapability[],
    source: PluginSourceEntity | null,
  ): void {
    const channel = capabilities.includes('notification_channel');
    if (channel && requested !== 'native') {
      throw new PluginsError('plugin_runtime_refused', {
        runtime: requested,
        reason: 'notification channels run native',
      });
    }
    if (requested !== runtime) {
      throw new PluginsError('plugin_runtime_refused', {
        runtime: requested,
        reason: `the plugin is built for ${runtime}`,
      });
    }
    if (runtime === 'native' && !(source?.publicKey && source.allowsNative)) {
      throw new PluginsError('plugin_native_not_permitted');
    }
  }

  private checkVerified(
    verified: VerifiedPluginVersion,
    requested: PluginRuntime,
    source: PluginSourceEntity | null,
  ): void {
    const m = verified.manifest;
    this.checkRuntime(requested, m.runtime, m.capabilities, source);
    if (m.runtime === 'wasm' && !SUPPORTED_WIT_VERSIONS.includes(m.wit_version)) {
      throw new PluginsError('plugin_manifest_invalid', {
        problems: `unsupported wit_version ${m.wit_version}`,
      });
    }
    this.checkRevoked(source, verified.digest);
    this.checkServiceVersion(m.min_service_version);
  }

  private checkRevoked(source: PluginSourceEntity | null, digest: string): void {
    if (source?.revokedDigests.includes(digest)) {
      throw new PluginsError('plugin_artifact_revoked', { digest });
    }
  }

  private checkServiceVersion(range: string): void {
    const service = pluginServiceVersion();
    if (!satisfiesServiceVersion(range, service)) {
      throw new PluginsError('plugin_service_version_unmet', {
        required: range,
        service: service.replace(/\.0$/, ''),
      });
    }
  }

  private pendingOf(
    verified: VerifiedPluginVersion,
    added: PluginCapability[],
  ): PendingPluginVersion {
    return {
      version: verified.manifest.version,
      artifact_sha256: verified.digest,
      manifest: verified.manifestBytes.toString('base64'),
      signature: verified.signature,
      capabilities: verified.manifest.capabilities,
      added_capabilities: added,
      runtime: verified.manifest.runtime,
      held_at: this.clock.now().toISOString(),
    };
  }
}
