import { Injectable } from '@nestjs/common';
import type { PluginRuntime } from '@platform/plugin-sdk';
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
import type { InstalledPlugin } from './installed-plugin';
import { InstalledPluginsRepository } from './installed-plugins.repository';
import { InstalledPluginsService } from './installed-plugins.service';
import { activeSource } from './install-lifecycle';
import {
  checkRevoked,
  checkRuntime,
  checkServiceVersion,
  checkVerified,
  refuseReinstall,
} from './plugin-admission';
import { PluginVersionsService } from './plugin-versions.service';

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

/**
 * Installing a plugin (spec "Plugins and administration"; docs/plugins/installation.md): from
 * a catalog source, or by sideload (a newer sideloaded version of a sideloaded plugin is a
 * version change). Every refusal happens before anything is written; an installation starts
 * disabled.
 */
@Injectable()
export class PluginInstallService {
  constructor(
    private readonly repository: InstalledPluginsRepository,
    private readonly catalogs: PluginCatalogService,
    private readonly plugins: InstalledPluginsService,
    private readonly versions: PluginVersionsService,
    private readonly audit: PluginAuditLog,
  ) {}

  async install(input: MarketplaceInstall, actor: Actor): Promise<InstalledPlugin> {
    if (input.sourceType === 'sideload') throw new PluginsError('plugin_sideload_on_json_route');
    const source = await activeSource(this.repository, input.marketplaceId);
    const document = await this.catalogs.fetch(source);
    const { version: entry } = this.catalogs.find(document, input.catalogPluginId, input.version);
    const existing = await this.repository.findByCatalogPluginId(input.catalogPluginId);
    if (existing) refuseReinstall(existing, entry.version);
    checkRuntime(input.runtime ?? 'wasm', entry.runtime, entry.capabilities, source);
    checkRevoked(source, entry.artifact_sha256);
    checkServiceVersion(entry.min_service_version);
    const verified = await this.catalogs.download(source, input.catalogPluginId, entry);
    checkVerified(verified, input.runtime ?? 'wasm', source);
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
    checkVerified(verified, runtime, null);
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
    return this.versions.changeVersion(existing.id, verified, actor);
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
}
