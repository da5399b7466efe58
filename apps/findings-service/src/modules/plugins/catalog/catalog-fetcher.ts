import { Inject, Injectable } from '@nestjs/common';
import { promises as dns, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { rootCertificates } from 'node:tls';
import {
  addressAllowed,
  classifyAddress,
  classifyHostName,
  normaliseHost,
  parseIpAddress,
} from '@platform/plugin-protocol';
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

interface Target {
  url: URL;
  /** The checked address the connection must use. */
  address: string;
  family: 4 | 6;
}

/**
 * Downloads catalog documents and artifacts under the plugin egress rules
 * (docs/plugins/catalog.md, "Fetching"): `https` only; the host is classified with the runner's
 * rules (@platform/plugin-protocol) — names and every resolved address — and loopback,
 * private, link-local, CGNAT, ULA, mapped and metadata addresses are refused; the connection
 * goes to the address that was checked; redirects are not followed; time and size are capped.
 * PLUGIN_CATALOG_ALLOW_LOCAL (development) admits `http` and local addresses (never metadata
 * or other forbidden ranges); PLUGIN_CATALOG_CA_FILE adds trusted roots.
 */
@Injectable()
export class CatalogFetcher {
  private readonly allowLocal: boolean;
  private readonly timeoutMs: number;
  private readonly ca: string[];

  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    this.allowLocal = config.plugins.catalogAllowLocal;
    this.timeoutMs = config.plugins.catalogTimeoutMs;
    this.ca = config.plugins.catalogCaFile
      ? [...rootCertificates, readFileSync(config.plugins.catalogCaFile, 'utf8')]
      : [...rootCertificates];
  }

  /** Checks a URL's form without resolving it (at registration). */
  checkUrlForm(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new CatalogUrlRefused('not a URL');
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.allowLocal)) {
      throw new CatalogUrlRefused(
        this.allowLocal ? 'scheme must be https or http' : 'scheme must be https',
      );
    }
    if (url.username || url.password) throw new CatalogUrlRefused('credentials in the URL');
    const host = normaliseHost(url.hostname);
    if (!host) throw new CatalogUrlRefused('host cannot be dialled');
    if (host.kind === 'name') {
      const klass = classifyHostName(host.name);
      if (klass === 'forbidden' || (klass === 'local' && !this.allowLocal)) {
        throw new CatalogUrlRefused(`host ${host.name} is ${klass}`);
      }
    } else {
      const klass = classifyAddress(host.address);
      if (!addressAllowed(klass, this.allowLocal)) {
        throw new CatalogUrlRefused(`address ${host.address.text} is ${klass.category}`);
      }
    }
    return url;
  }

  /** GET `raw` (no redirects), at most `maxBytes`. */
  async get(raw: string, maxBytes: number): Promise<Buffer> {
    const target = await this.resolve(this.checkUrlForm(raw));
    return this.download(target, maxBytes);
  }

  private async resolve(url: URL): Promise<Target> {
    const host = normaliseHost(url.hostname);
    if (host?.kind === 'ip') {
      return { url, address: host.address.text, family: host.address.family };
    }
    let answers: LookupAddress[];
    try {
      answers = await dns.lookup(url.hostname, { all: true, verbatim: true });
    } catch (error) {
      throw new CatalogDownloadFailed(
        `cannot resolve ${url.hostname}: ${(error as Error).message}`,
      );
    }
    if (answers.length === 0) throw new CatalogDownloadFailed(`no address for ${url.hostname}`);
    for (const answer of answers) {
      const address = parseIpAddress(answer.address);
      const klass = address ? classifyAddress(address) : undefined;
      if (!klass || !addressAllowed(klass, this.allowLocal)) {
        throw new CatalogUrlRefused(
          `${url.hostname} resolves to ${answer.address} (${klass?.category ?? 'unparsable'})`,
        );
      }
    }
    const first = answers[0];
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  private download(target: Target, maxBytes: number): Promise<Buffer> {
    const { url } = target;
    const lookup = (
      _host: string,
      options: { all?: boolean },
      callback: (...args: unknown[]) => void,
    ): void => {
      if (options.all) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    const options: https.RequestOptions = {
      method: 'GET',
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: { accept: 'application/json, application/octet-stream' },
      lookup: lookup as unknown as https.RequestOptions['lookup'],
      signal: AbortSignal.timeout(this.timeoutMs),
      ...(url.protocol === 'https:' ? { ca: this.ca } : {}),
      // SNI carries names only (an IP literal is checked against the certificate's IP SANs)
      ...(url.protocol === 'https:' && normaliseHost(url.hostname)?.kind === 'name'
        ? { servername: url.hostname }
        : {}),
      agent: false,
    };
    const request = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<Buffer>((resolve, reject) => {
      const req = request(options, (res) => {
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          res.resume();
          reject(
            new CatalogDownloadFailed(
              status >= 300 && status < 400
                ? `answered ${status} (redirects are not followed)`
                : `answered ${status}`,
            ),
          );
          return;
        }
        const declared = Number(res.headers['content-length'] ?? NaN);
        if (declared > maxBytes) {
          res.destroy();
          reject(new CatalogDownloadFailed(`larger than ${maxBytes} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(new CatalogDownloadFailed(`larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', (error) => reject(new CatalogDownloadFailed(error.message)));
      });
      req.on('error', (error) =>
        reject(
          new CatalogDownloadFailed(
            error.name === 'AbortError' || error.name === 'TimeoutError'
              ? `no answer within ${this.timeoutMs} ms`
              : error.message,
          ),
        ),
      );
      req.end();
    });
  }
}
