import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PluginCapability } from '@platform/plugin-sdk';
import { Clock } from '../../../app/clock';
import type { Actor } from '../../action-log/finding-action';
import { PluginAuditLog } from '../audit/plugin-audit.log';
import { compareSemver } from '../catalog/catalog-document';
import {
  PluginCatalogService,
  verifyVersion,
  type VerifiedPluginVersion,
} from '../catalog/plugin-catalog.service';
import { PluginsError } from '../plugins.errors';
import type { InstalledPluginEntity, PendingPluginVersion } from './installed-plugin.entity';
import type { InstalledPlugin } from './installed-plugin';
import { InstalledPluginsRepository } from './installed-plugins.repository';
import { InstalledPluginsService } from './installed-plugins.service';
import { activeSource, loadInside, lockInstallation } from './install-lifecycle';
import { checkRevoked, checkRuntime, checkServiceVersion, checkVerified } from './plugin-admission';

export interface VersionChange {
  /** A version from the catalog's history; the newest when absent. */
  version?: string;
  /** Needed to install a version older than the installed one. */
  confirmDowngrade?: boolean;
}

/**
 * Versions of an installation (spec "Plugins and administration"): update to the newest or a
 * concrete catalog version, downgrade with confirmation, a sideloaded newer version, and
 * capability widening held until acknowledged. An enabled installation's new version is
 * loaded in the runner inside the transaction: a version the runner refuses is not recorded.
 */
@Injectable()
export class PluginVersionsService {
  constructor(
    private readonly repository: InstalledPluginsRepository,
    private readonly catalogs: PluginCatalogService,
    private readonly plugins: InstalledPluginsService,
    private readonly audit: PluginAuditLog,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

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
    const source = await activeSource(this.repository, row.marketplaceId);
    const document = await this.catalogs.fetch(source);
    const { version: entry } = this.catalogs.find(document, row.catalogPluginId, change.version);
    if (compareSemver(entry.version, row.version) < 0 && !change.confirmDowngrade) {
      throw new PluginsError('plugin_downgrade_unconfirmed', {
        version: entry.version,
        installed: row.version,
      });
    }
    checkRuntime(row.runtime, entry.runtime, entry.capabilities, source);
    checkRevoked(source, entry.artifact_sha256);
    checkServiceVersion(entry.min_service_version);
    const verified = await this.catalogs.download(source, row.catalogPluginId, entry);
    checkVerified(verified, row.runtime, source);
    return this.changeVersion(id, verified, actor);
  }

  /** Applies the held version whose wider capabilities an administrator now accepts. */
  async acknowledge(id: string, actor: Actor): Promise<InstalledPlugin> {
    await this.repository.transaction(async (manager) => {
      const row = await lockInstallation(this.repository, manager, id);
      const pending = row.pendingVersion;
      if (!pending) throw new PluginsError('plugin_no_pending_change');
      const source = row.marketplaceId ? await this.repository.source(row.marketplaceId) : null;
      checkRevoked(source, pending.artifact_sha256);
      const artifact = await this.repository.artifact(pending.artifact_sha256);
      if (!artifact) throw new PluginsError('plugin_artifact_invalid', { problem: 'missing' });
      const verified = verifyVersion({
        artifact,
        manifestBytes: Buffer.from(pending.manifest, 'base64'),
        signature: pending.signature,
        publicKey: source?.publicKey ?? null,
      });
      await this.apply(manager, row, verified);
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

  /**
   * Moves the installation to a checked, verified version: applied at once, or held (and
   * `plugin_capability_change_pending`) when it widens the capabilities.
   */
  async changeVersion(
    id: string,
    verified: VerifiedPluginVersion,
    actor: Actor,
  ): Promise<InstalledPlugin> {
    let held: PendingPluginVersion | null = null;
    await this.repository.transaction(async (manager) => {
      const row = await lockInstallation(this.repository, manager, id);
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
      await this.apply(manager, row, verified);
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
    if (row.enabled) await loadInside(this.repository, this.plugins, manager, row.id);
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
