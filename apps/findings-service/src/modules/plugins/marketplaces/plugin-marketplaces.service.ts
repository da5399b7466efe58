import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { createPublicKey } from 'node:crypto';
import { satisfiesServiceVersion } from '@platform/plugin-sdk';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import type { FindingsConfig } from '../../../app/config/findings-config';
import { systemActor, type Actor } from '../../action-log/finding-action';
import { PluginAuditLog } from '../audit/plugin-audit.log';
import { PluginCatalogService } from '../catalog/plugin-catalog.service';
import { InstalledPluginsRepository } from '../installed-plugins/installed-plugins.repository';
import { PluginsError } from '../plugins.errors';
import { pluginServiceVersion } from '../service-version';
import type { PluginCatalogDto } from './dto/plugin-catalog.dto';
import type { PluginSourceEntity } from './plugin-source.entity';
import { PluginSourcesRepository, type PluginSourceChanges } from './plugin-sources.repository';

export interface NewMarketplace {
  name: string;
  catalogUrl: string;
  publicKey?: string;
  isActive?: boolean;
  /** Present at all: refused (the permission is granted only by an update). */
  allowsNative?: unknown;
}

export interface MarketplaceUpdate {
  name?: string;
  catalogUrl?: string;
  publicKey?: string | null;
  isActive?: boolean;
  allowsNative?: boolean;
}

export const OFFICIAL_SOURCE_NAME = 'Official plugin catalog';

/**
 * Plugin catalog sources (spec "Plugins and administration"; docs/plugins/catalog.md): the
 * public key is write-only; `allows_native` only by update, audited, effective only with a
 * key; a key cannot change while `allows_native` is true. Registers the official source at
 * start (idempotent across restarts and replicas).
 */
@Injectable()
export class PluginMarketplacesService implements OnApplicationBootstrap {
  private readonly logger = new Logger('PluginMarketplaces');

  constructor(
    private readonly repository: PluginSourcesRepository,
    private readonly installed: InstalledPluginsRepository,
    private readonly catalogs: PluginCatalogService,
    private readonly audit: PluginAuditLog,
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.role !== 'api') return;
    await this.registerOfficial();
  }

  /** Inserts the official source unless it exists; true when this call inserted it. */
  async registerOfficial(): Promise<boolean> {
    const inserted = await this.repository.insertOfficialOnce({
      name: OFFICIAL_SOURCE_NAME,
      catalogUrl: this.config.plugins.officialCatalogUrl,
      publicKey: this.config.plugins.officialCatalogPublicKey ?? null,
      isActive: true,
      allowsNative: false,
      official: true,
    });
    if (inserted) {
      await this.audit.record({
        actor: systemActor('startup'),
        action: 'marketplace.created',
        details: { official: true, catalog_url: this.config.plugins.officialCatalogUrl },
      });
      this.logger.log(`registered the official plugin catalog source`);
    }
    return inserted;
  }

  list(): Promise<PluginSourceEntity[]> {
    return this.repository.list();
  }

  async get(id: string): Promise<PluginSourceEntity> {
    const source = await this.repository.findById(id);
    if (!source) throw new PluginsError('plugin_source_not_found');
    return source;
  }

  async create(input: NewMarketplace, actor: Actor): Promise<PluginSourceEntity> {
    if (input.allowsNative !== undefined) throw new PluginsError('plugin_source_native_on_create');
    this.catalogs.checkCatalogUrl(input.catalogUrl);
    const publicKey = input.publicKey === undefined ? null : normaliseKey(input.publicKey);
    return this.repository.transaction(async (manager) => {
      const source = await this.repository.insert(
        {
          name: input.name,
          catalogUrl: input.catalogUrl,
          publicKey,
          isActive: input.isActive ?? true,
          allowsNative: false,
          official: false,
        },
        manager,
      );
      await this.audit.record(
        {
          actor,
          action: 'marketplace.created',
          marketplaceId: source.id,
          details: {
            name: source.name,
            catalog_url: source.catalogUrl,
            signed: publicKey !== null,
          },
        },
        manager,
      );
      return source;
    });
  }

  async update(id: string, input: MarketplaceUpdate, actor: Actor): Promise<PluginSourceEntity> {
    if (input.catalogUrl !== undefined) this.catalogs.checkCatalogUrl(input.catalogUrl);
    const publicKey =
      input.publicKey === undefined || input.publicKey === null
        ? input.publicKey
        : normaliseKey(input.publicKey);
    await this.repository.transaction(async (manager) => {
      const current = await this.repository.lockById(manager, id);
      if (!current) throw new PluginsError('plugin_source_not_found');
      const keyChanges = publicKey !== undefined && publicKey !== current.publicKey;
      if (keyChanges && current.allowsNative) throw new PluginsError('plugin_source_key_locked');
      const changes: PluginSourceChanges = {};
      if (input.name !== undefined && input.name !== current.name) changes.name = input.name;
      if (input.catalogUrl !== undefined && input.catalogUrl !== current.catalogUrl) {
        changes.catalogUrl = input.catalogUrl;
      }
      if (keyChanges) changes.publicKey = publicKey;
      if (input.isActive !== undefined && input.isActive !== current.isActive) {
        changes.isActive = input.isActive;
      }
      if (input.allowsNative !== undefined && input.allowsNative !== current.allowsNative) {
        changes.allowsNative = input.allowsNative;
      }
      if (Object.keys(changes).length === 0) return;
      await this.repository.update(manager, id, changes);
      const { allowsNative, publicKey: _key, ...plain } = changes;
      if (Object.keys(plain).length > 0 || keyChanges) {
        await this.audit.record(
          {
            actor,
            action: 'marketplace.updated',
            marketplaceId: id,
            details: {
              fields: [...Object.keys(plain), ...(keyChanges ? ['public_key'] : [])].map(snake),
              ...(keyChanges ? { signed: publicKey !== null } : {}),
            },
          },
          manager,
        );
      }
      if (allowsNative !== undefined) {
        await this.audit.record(
          {
            actor,
            action: allowsNative ? 'marketplace.native_granted' : 'marketplace.native_withdrawn',
            marketplaceId: id,
            details: { signed: (changes.publicKey ?? current.publicKey) !== null },
          },
          manager,
        );
      }
    });
    return this.get(id);
  }

  /** The source's catalog, fetched and verified now, with compatibility per version. */
  async catalog(id: string): Promise<PluginCatalogDto> {
    const source = await this.get(id);
    const document = await this.catalogs.fetch(source);
    const installed = new Map(
      (await this.installed.list())
        .filter((p) => p.marketplaceId === id)
        .map((p) => [p.catalogPluginId, p.version]),
    );
    const service = pluginServiceVersion();
    const revoked = new Set(document.revoked_digests);
    return {
      marketplace_id: source.id,
      signed: source.publicKey !== null,
      service_version: service.replace(/\.0$/, ''),
      fetched_at: (source.catalogFetchedAt ?? new Date()).toISOString(),
      revoked_digests: document.revoked_digests,
      plugins: document.plugins.map((plugin) => {
        const latest = plugin.available_versions[0];
        return {
          id: plugin.id,
          ...(plugin.name ? { name: plugin.name } : {}),
          ...(plugin.description ? { description: plugin.description } : {}),
          latest_version: latest.version,
          min_service_version: latest.min_service_version,
          signature: latest.signature,
          capabilities: latest.capabilities,
          runtime: latest.runtime,
          installed_version: installed.get(plugin.id) ?? null,
          available_versions: plugin.available_versions.map((v) => ({
            version: v.version,
            min_service_version: v.min_service_version,
            runtime: v.runtime,
            capabilities: v.capabilities,
            artifact_sha256: v.artifact_sha256,
            signature: v.signature,
            ...(v.published_at ? { published_at: v.published_at } : {}),
            compatible: satisfiesServiceVersion(v.min_service_version, service),
            revoked: revoked.has(v.artifact_sha256),
          })),
        };
      }),
    };
  }
}

function normaliseKey(pem: string): string {
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('not ed25519');
    return key.export({ type: 'spki', format: 'pem' }).toString();
  } catch {
    throw new PluginsError('plugin_source_key_invalid');
  }
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
