import { Inject, Injectable } from '@nestjs/common';
import {
  ANY_HOST,
  checkEgressUrl,
  DEFAULT_EGRESS_POLICY,
  guardedRequest,
  type EgressContext,
  type EgressPolicy,
  type EgressRefusal,
  type EgressRefusalReason,
} from '@platform/egress';
import { readFileSync } from 'node:fs';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import type { FindingsConfig } from '../../../app/config/findings-config';

/** A catalog or artifact URL the request-forgery rules refuse, before anything is sent. */
export class CatalogUrlRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CatalogUrlRefused';
  }
}

/** The download failed (network, status, size, time). */
export class CatalogDownloadFailed extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CatalogDownloadFailed';
  }
}

/**
 * Refusals that concern the URL itself (its form, its host, the addresses it resolves to):
 * `400 plugin_catalog_url_refused`. Every other refusal is the source failing to serve it.
 */
const URL_REFUSALS: ReadonlySet<EgressRefusalReason> = new Set<EgressRefusalReason>([
  'invalid_url',
  'scheme_not_allowed',
  'host_not_permitted',
  'host_forbidden',
  'address_not_allowed',
  'address_not_allowlisted',
]);

/** Catalog URLs are entered by an administrator; artifact URLs may name another host (a CDN). */
const CATALOG_CONTEXT: EgressContext = { caller: 'plugin-catalog', permittedHosts: ANY_HOST };

/**
 * Downloads catalog documents and artifacts through the shared request-forgery guard
 * (@platform/egress, docs/egress.md; rules in docs/plugins/catalog.md, "Fetching"): `https`
 * only; the host name and every resolved address are classified, and loopback, private,
 * link-local, CGNAT, ULA, mapped and metadata addresses are refused; the connection goes to
 * the address that was checked; redirects are not followed; time and size are capped.
 * PLUGIN_CATALOG_ALLOW_LOCAL (development) admits `http` and local addresses (never metadata
 * or other forbidden ranges); PLUGIN_CATALOG_CA_FILE adds trusted roots.
 */
@Injectable()
export class CatalogFetcher {
  private readonly allowLocal: boolean;
  private readonly policy: EgressPolicy;
  private readonly extraCa?: string[];

  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    this.allowLocal = config.plugins.catalogAllowLocal;
    this.policy = {
      ...DEFAULT_EGRESS_POLICY,
      allowHttp: this.allowLocal,
      allowLocalDial: this.allowLocal,
      timeoutMs: config.plugins.catalogTimeoutMs,
      maxRequestBytes: 0,
      maxRedirects: 0,
    };
    this.extraCa = config.plugins.catalogCaFile
      ? [readFileSync(config.plugins.catalogCaFile, 'utf8')]
      : undefined;
  }

  /** Checks a URL's form without resolving it (at registration). */
  checkUrlForm(raw: string): URL {
    const checked = checkEgressUrl(this.policy, CATALOG_CONTEXT, raw);
    if (!checked.ok) throw new CatalogUrlRefused(this.urlReason(checked, raw));
    return checked.url;
  }

  /** GET `raw` (no redirects), at most `maxBytes`. */
  async get(raw: string, maxBytes: number): Promise<Buffer> {
    const url = this.checkUrlForm(raw);
    const outcome = await guardedRequest(
      { ...this.policy, maxResponseBytes: maxBytes },
      CATALOG_CONTEXT,
      {
        method: 'GET',
        url: url.href,
        headers: [['accept', 'application/json, application/octet-stream']],
      },
      { extraCa: this.extraCa },
    );
    if (!outcome.ok) {
      if (URL_REFUSALS.has(outcome.reason)) {
        throw new CatalogUrlRefused(this.urlReason(outcome, raw));
      }
      throw new CatalogDownloadFailed(this.downloadReason(outcome, maxBytes));
    }
    if (outcome.status !== 200) {
      throw new CatalogDownloadFailed(
        outcome.status >= 300 && outcome.status < 400
          ? `answered ${outcome.status} (redirects are not followed)`
          : `answered ${outcome.status}`,
      );
    }
    return Buffer.from(outcome.body);
  }

  /** The reason an administrator reads in `plugin_catalog_url_refused`. */
  private urlReason(refusal: EgressRefusal, raw: string): string {
    if (refusal.reason === 'scheme_not_allowed') {
      return this.allowLocal ? 'scheme must be https or http' : 'scheme must be https';
    }
    if (refusal.reason === 'invalid_url') {
      if (!URL.canParse(raw)) return 'not a URL';
      const url = new URL(raw);
      return url.username || url.password ? 'credentials in the URL' : 'host cannot be dialled';
    }
    return `${refusal.message} (${refusal.reason})`;
  }

  /** The reason of `plugin_catalog_unavailable`. */
  private downloadReason(refusal: EgressRefusal, maxBytes: number): string {
    if (refusal.reason === 'body_too_large') return `larger than ${maxBytes} bytes`;
    if (refusal.reason === 'timeout') return `no answer within ${this.policy.timeoutMs} ms`;
    return refusal.message;
  }
}
