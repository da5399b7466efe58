import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { Registry } from 'prom-client';
import {
  DEFAULT_EGRESS_POLICY,
  PinnedEgressGuard,
  parseCidr,
  type EgressContext,
  type EgressDenials,
  type EgressPolicy,
  type EgressRefusalReason,
  type IpRange,
} from '@platform/egress';
import { DnsResponder } from '@platform/egress/testing';
import { EGRESS_DENIALS_METRIC, registerEgressDenials } from '../../../src/egress/egress-metrics';
import { RUNNER_EGRESS_LABELS } from '../../../src/egress/egress.provider';
import { createTestPki, type TestPki } from './test-pki';

/** Names in the stand-in's certificate; `wrongname.test` is deliberately not among them. */
export const CERT_NAMES = [
  'good.test',
  'allowed.test',
  'loop.test',
  'rebind.test',
  'evil.test',
  'localhost',
];
export const CERT_IPS = ['127.0.0.1', '127.0.0.2', '::1'];

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A server that must never be reached: counts TCP connections and answers "VICTIM". */
export interface Victim {
  name: string;
  connections: number;
  requests: RecordedRequest[];
}

/**
 * The loopback world of the egress tests: a DNS responder, the "good" TLS stand-in on
 * 127.0.0.2:port (the only place a permitted call may land), victims on 127.0.0.1:port and
 * [::1]:port (TLS, same certificate: an escape would complete) and a plain-HTTP victim on
 * 127.0.0.1, and one denial counter shared by every guard the test builds.
 */
export class EgressLab {
  readonly good: RecordedRequest[] = [];
  readonly victims: Victim[] = [];
  readonly registry = new Registry();
  readonly denials: EgressDenials = registerEgressDenials(this.registry);
  /** Port of the TLS stand-in (127.0.0.2) and of the TLS victims (127.0.0.1, ::1). */
  port = 0;
  /** Port of the plain-HTTP victim on 127.0.0.1. */
  httpPort = 0;
  private readonly servers: Array<http.Server | NetServer> = [];

  private constructor(
    readonly dns: DnsResponder,
    readonly pki: TestPki,
  ) {}

  static async start(): Promise<EgressLab> {
    const lab = new EgressLab(await DnsResponder.start(), createTestPki(CERT_NAMES, CERT_IPS));
    await lab.listen();
    return lab;
  }

  /** A guard with the default policy changed by `overrides`, resolving through the lab's DNS. */
  guard(
    overrides: Partial<EgressPolicy> & { allowlistText?: string[] } = {},
    options: { trustCa?: boolean } = {},
  ) {
    const { allowlistText, ...policy } = overrides;
    return new PinnedEgressGuard({
      policy: { ...DEFAULT_EGRESS_POLICY, ...policy, allowlist: (allowlistText ?? []).map(cidr) },
      resolver: this.dns.resolver(),
      denials: this.denials,
      extraCa: options.trustCa === false ? undefined : [this.pki.caPem],
      labels: RUNNER_EGRESS_LABELS,
    });
  }

  context(...permittedHosts: string[]): EgressContext {
    return { caller: 'test-plugin', permittedHosts };
  }

  async denialCount(reason: EgressRefusalReason): Promise<number> {
    const metric = await this.registry.getSingleMetric(EGRESS_DENIALS_METRIC)?.get();
    return metric?.values.find((v) => v.labels.reason === reason)?.value ?? 0;
  }

  escapes(): number {
    return this.victims.reduce((sum, v) => sum + v.connections, 0);
  }

  async close(): Promise<void> {
    for (const server of this.servers) {
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await this.dns.close();
  }

  private async listen(): Promise<void> {
    const good = https.createServer(
      { key: this.pki.keyPem, cert: this.pki.certPem },
      (req, res) => void this.serveGood(req, res),
    );
    for (let attempt = 0; ; attempt += 1) {
      await listen(good, 0, '127.0.0.2');
      this.port = (good.address() as AddressInfo).port;
      try {
        // The victims share the port, so a request pinned to the wrong address lands there.
        const v4 = this.victimServer('tls 127.0.0.1');
        await listen(v4, this.port, '127.0.0.1');
        const v6 = this.victimServer('tls [::1]');
        await listen(v6, this.port, '::1');
        break;
      } catch (error) {
        for (const s of this.servers) s.close();
        this.servers.length = 0;
        this.victims.length = 0;
        await new Promise<void>((resolve) => good.close(() => resolve()));
        if (attempt >= 5) throw error;
      }
    }
    this.servers.unshift(good);
    const plain = this.victimServer('http 127.0.0.1', false);
    await listen(plain, 0, '127.0.0.1');
    this.httpPort = (plain.address() as AddressInfo).port;
  }

  private victimServer(name: string, tls = true): http.Server {
    const victim: Victim = { name, connections: 0, requests: [] };
    this.victims.push(victim);
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      void readBody(req).then((body) => {
        victim.requests.push({
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body,
        });
        res.end('VICTIM');
      });
    };
    const server = tls
      ? https.createServer({ key: this.pki.keyPem, cert: this.pki.certPem }, handler)
      : http.createServer(handler);
    server.on('connection', () => (victim.connections += 1));
    this.servers.push(server);
    return server;
  }

  private async serveGood(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req);
    this.good.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const url = new URL(req.url ?? '/', 'https://stand-in');
    switch (url.pathname) {
      case '/ok':
        res.setHeader('x-stand-in', 'good');
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.writeHead(201, { 'content-type': 'text/plain' });
        res.end('hello from the stand-in');
        return;
      case '/echo':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
        return;
      case '/redirect':
        res.writeHead(Number(url.searchParams.get('status') ?? 302), {
          location: url.searchParams.get('to') ?? '/ok',
        });
        res.end();
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        res.end();
        return;
      case '/big': {
        const size = Number(url.searchParams.get('size'));
        res.writeHead(200, { 'content-length': String(size) });
        res.end(Buffer.alloc(size, 'x'));
        return;
      }
      case '/chunked': {
        const size = Number(url.searchParams.get('size'));
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let sent = 0; sent < size; sent += 1024) res.write(Buffer.alloc(1024, 'y'));
        res.end();
        return;
      }
      case '/hang':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first bytes, then nothing');
        return; // never ended: only the guard's time cap ends this call
      case '/silent':
        return; // no status line at all
      default:
        res.writeHead(404);
        res.end('no such stand-in route');
    }
  }
}

function cidr(text: string): IpRange {
  const range = parseCidr(text);
  if ('error' in range) throw new Error(range.error);
  return range;
}

function listen(server: http.Server | NetServer, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** A TCP listener that only counts connections (stands in for an HTTP(S) proxy). */
export async function startCountingListener(): Promise<{
  port: number;
  connections: () => number;
  close: () => Promise<void>;
}> {
  let connections = 0;
  const server = createNetServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await listen(server, 0, '127.0.0.1');
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
