import { Inject, Injectable } from '@nestjs/common';
import {
  PluginArtifactError,
  verifyPluginArtifact,
  type PluginManifest,
} from '@platform/plugin-sdk';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import type { FindingsConfig } from '../../../app/config/findings-config';
import { Clock } from '../../../app/clock';
import type { PluginSourceEntity } from '../marketplaces/plugin-source.entity';
import { PluginSourcesRepository } from '../marketplaces/plugin-sources.repository';
import { PluginsError } from '../plugins.errors';
import {
  CatalogFormatError,
  readCatalog,
  type CatalogDocument,
  type CatalogPlugin,
  type CatalogVersion,
} from './catalog-document';
import { CatalogDownloadFailed, CatalogFetcher, CatalogUrlRefused } from './catalog-fetcher';

/** A version downloaded and verified: what an installation stores. */
export interface VerifiedPluginVersion {
  manifest: PluginManifest;
  manifestBytes: Buffer;
  signature: string | null;
  artifact: Buffer;
  digest: string;
}

/**
 * Fetches and verifies a source's catalog (docs/plugins/catalog.md) and the artifacts it
 * lists. Every verified fetch records the source's revocation list.
 */
@Injectable()
export class PluginCatalogService {
  constructor(
    private readonly fetcher: CatalogFetcher,
    private readonly sources: PluginSourcesRepository,
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly clock: Clock,
  ) {}

  /** Refuses a catalog URL the request-forgery rules refuse (form only, no DNS). */
  checkCatalogUrl(url: string): void {
    try {
      this.fetcher.checkUrlForm(url);
    } catch (error) {
      throw this.downloadError(error);
    }
  }

  async fetch(source: PluginSourceEntity): Promise<CatalogDocument> {
    let bytes: Buffer;
    try {
      bytes = await this.fetcher.get(source.catalogUrl, this.config.plugins.catalogMaxBytes);
    } catch (error) {
      throw this.downloadError(error);
    }
    let document: CatalogDocument;
    try {
      document = readCatalog(bytes, source.publicKey);
    } catch (error) {
      if (!(error instanceof CatalogFormatError)) throw error;
      throw error.kind === 'signature'
        ? new PluginsError('plugin_catalog_signature_invalid')
        : new PluginsError('plugin_catalog_invalid', { reason: error.message });
    }
    await this.sources.recordCatalog(source.id, document.revoked_digests, this.clock.now());
    source.revokedDigests = document.revoked_digests;
    return document;
  }

  /** The plugin and one of its versions (the newest when `version` is absent). */
  find(
    document: CatalogDocument,
    pluginId: string,
    version?: string,
  ): { plugin: CatalogPlugin; version: CatalogVersion } {
    const plugin = document.plugins.find((p) => p.id === pluginId);
    const chosen = version
      ? plugin?.available_versions.find((v) => v.version === version)
      : plugin?.available_versions[0];
    if (!plugin || !chosen) {
      throw new PluginsError('plugin_not_in_catalog', {
        catalog_plugin_id: pluginId,
        ...(version ? { version } : {}),
      });
    }
    return { plugin, version: chosen };
  }

  /**
   * Downloads the version's artifact and verifies it: the publisher's signature over the
   * manifest bytes (signed source), the manifest's format, the artifact's sha256 against the
   * manifest and the catalog, and that the manifest says what the catalog entry says.
   */
  async download(
    source: PluginSourceEntity,
    pluginId: string,
    entry: CatalogVersion,
  ): Promise<VerifiedPluginVersion> {
    let artifact: Buffer;
    try {
      const url = new URL(entry.artifact_url, source.catalogUrl).toString();
      artifact = await this.fetcher.get(url, this.config.plugins.artifactMaxBytes);
    } catch (error) {
      throw this.downloadError(error);
    }
    const manifestBytes = Buffer.from(entry.manifest, 'base64');
    const verified = verifyVersion({
      artifact,
      manifestBytes,
      signature: entry.signature,
      publicKey: source.publicKey,
    });
    const m = verified.manifest;
    const same =
      m.id === pluginId &&
      m.version === entry.version &&
      m.runtime === entry.runtime &&
      m.min_service_version === entry.min_service_version &&
      m.artifact_sha256 === entry.artifact_sha256 &&
      m.capabilities.length === entry.capabilities.length &&
      m.capabilities.every((c) => entry.capabilities.includes(c));
    if (!same) {
      throw new PluginsError('plugin_manifest_invalid', {
        problems: 'the signed manifest and the catalog entry disagree',
      });
    }
    return verified;
  }

  private downloadError(error: unknown): Error {
    if (error instanceof CatalogUrlRefused) {
      return new PluginsError('plugin_catalog_url_refused', { reason: error.reason });
    }
    if (error instanceof CatalogDownloadFailed) {
      return new PluginsError('plugin_catalog_unavailable', { reason: error.reason });
    }
    if (error instanceof TypeError) {
      return new PluginsError('plugin_catalog_url_refused', { reason: 'not a URL' });
    }
    return error as Error;
  }
}

/**
 * Verifies a plugin version as received (catalog download or sideload). With a public key
 * the signature must verify; without one (unsigned source, sideload) it is not checked.
 */
export function verifyVersion(input: {
  artifact: Buffer;
  manifestBytes: Buffer;
  signature: string | null;
  publicKey: string | null;
}): VerifiedPluginVersion {
  try {
    const manifest = verifyPluginArtifact({
      artifact: input.artifact,
      manifestBytes: input.manifestBytes,
      signature: input.signature ?? undefined,
      publicKey: input.publicKey ?? undefined,
    });
    return {
      manifest,
      manifestBytes: input.manifestBytes,
      signature: input.signature,
      artifact: input.artifact,
      digest: manifest.artifact_sha256,
    };
  } catch (error) {
    if (!(error instanceof PluginArtifactError)) throw error;
    switch (error.problem) {
      case 'signature_missing':
      case 'signature_invalid':
        throw new PluginsError('plugin_signature_invalid');
      case 'manifest_invalid':
        throw new PluginsError('plugin_manifest_invalid', { problems: error.message });
      case 'digest_mismatch':
        throw new PluginsError('plugin_artifact_invalid', { problem: 'digest_mismatch' });
    }
  }
}
