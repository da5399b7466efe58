import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError } from '@platform/config';
import type { EgressOutcome } from '@platform/egress';
import { DnsResponder } from '@platform/egress/testing';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CoreModule } from '../../src/app/core.module';
import { loadFindingsConfig } from '../../src/app/config/findings-config';
import { FindingsMetrics } from '../../src/app/metrics/findings-metrics';
import {
  OUTBOUND_RESOLVER,
  OutboundHttpClient,
} from '../../src/modules/outbound-http/outbound-http.client';
import { OUTBOUND_DENIALS_METRIC } from '../../src/modules/outbound-http/outbound-denials';
import { OutboundHttpModule } from '../../src/modules/outbound-http/outbound-http.module';

/** What a loopback server saw. */
interface Seen {
  connections: number;
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>;
}

/**
 * The service's outgoing calls as other modules get them: `OutboundHttpClient` from its Nest
 * module over the config `loadFindingsConfig` validates, against real HTTP servers on loopback.
 * The stand-in listens on 127.0.0.2; a victim shares its port on 127.0.0.1 and must never be
 * reached. Names resolve through a DNS server on loopback whose answers the test programs.
 */
describe('outbound calls of the findings service (OutboundHttpClient, @platform/egress)', () => {
  let dns: DnsResponder;
  let port = 0;
  const good: Seen = { connections: 0, requests: [] };
  const victim: Seen = { connections: 0, requests: [] };
  const servers: http.Server[] = [];
  const contexts: INestApplicationContext[] = [];

  beforeAll(async () => {
    dns = await DnsResponder.start();
    for (let attempt = 0; ; attempt += 1) {
      const stand = server(good, serveStandIn);
      await listen(stand, 0, '127.0.0.2');
      port = (stand.address() as AddressInfo).port;
      const trap = server(victim, (_req, res) => res.end('VICTIM'));
      try {
        await listen(trap, port, '127.0.0.1');
        servers.push(stand, trap);
        break;
      } catch (error) {
        await close(stand);
        if (attempt >= 5) throw error;
      }
    }
  });

  afterAll(async () => {
    await Promise.all(servers.map(close));
    await dns.close();
  });

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    expect(victim.connections).toBe(0);
  });

  /** The client as a feature module receives it, built from these variables. */
  async function clientWith(
    env: Record<string, string>,
  ): Promise<{ client: OutboundHttpClient; metrics: FindingsMetrics }> {
    const config = loadFindingsConfig({
      DATABASE_URL: 'postgres://unused',
      REDIS_URL: 'redis://unused',
      LOG_FILE_SINK_ENABLED: 'false',
      ...env,
    });
    const metrics = new FindingsMetrics();
    @Global()
    @Module({
      providers: [{ provide: OUTBOUND_RESOLVER, useValue: dns.resolver() }],
      exports: [OUTBOUND_RESOLVER],
    })
    class LoopbackDnsModule {}
    @Module({
      imports: [CoreModule.forRoot(config, metrics), LoopbackDnsModule, OutboundHttpModule],
    })
    class RootModule {}
    const context = await NestFactory.createApplicationContext(RootModule, { logger: false });
    contexts.push(context);
    return { client: context.get(OutboundHttpClient), metrics };
  }

  const LOCAL_DEV = { OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_LOCAL_DIAL: 'true' };
  const standIn = (path: string) => `http://127.0.0.2:${port}${path}`;

  async function denials(metrics: FindingsMetrics, reason: string): Promise<number> {
    const metric = await metrics.registry.getSingleMetric(OUTBOUND_DENIALS_METRIC)?.get();
    return metric?.values.find((v) => v.labels['reason'] === reason)?.value ?? 0;
  }

  it('refuses loopback and local names by default, before any connection', async () => {
    const before = good.connections;
    const { client, metrics } = await clientWith({});
    expect(await client.request(standIn('/ok'))).toMatchObject({
      ok: false,
      reason: 'scheme_not_allowed',
    });
    expect(await client.request(`https://127.0.0.2:${port}/ok`)).toMatchObject({
      ok: false,
      reason: 'address_not_allowed',
      message: expect.stringContaining('loopback'),
    });
    expect(await client.request(`https://localhost:${port}/ok`)).toMatchObject({
      ok: false,
      reason: 'host_forbidden',
    });
    expect(client.check(`https://0x7f000002:${port}/ok`)).toMatchObject({
      ok: false,
      reason: 'address_not_allowed',
    });
    // Only the scheme relaxed: the loopback address is still refused.
    const httpOnly = (await clientWith({ OUTBOUND_ALLOW_HTTP: 'true' })).client;
    expect(await httpOnly.request(standIn('/ok'))).toMatchObject({
      ok: false,
      reason: 'address_not_allowed',
    });
    expect(good.connections).toBe(before);
    expect(await denials(metrics, 'address_not_allowed')).toBe(1);
    expect(await denials(metrics, 'scheme_not_allowed')).toBe(1);
  });

  it('calls loopback with the development flags: method, headers and body pass, the answer comes back', async () => {
    const { client } = await clientWith(LOCAL_DEV);
    const outcome = await client.request(standIn('/echo?page=2'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Token abc' },
      body: '{"prefix":"10.0.0.0/8"}',
      caller: 'netbox-import',
    });
    expect(outcome).toMatchObject({ ok: true, status: 200, redirects: 0 });
    const sent = good.requests[good.requests.length - 1];
    expect(sent).toMatchObject({
      method: 'POST',
      url: '/echo?page=2',
      body: '{"prefix":"10.0.0.0/8"}',
      headers: expect.objectContaining({
        'content-type': 'application/json',
        authorization: 'Token abc',
        host: `127.0.0.2:${port}`,
      }),
    });
    if (!outcome.ok) return;
    expect(JSON.parse(Buffer.from(outcome.body).toString())).toEqual({ echoed: 'POST' });
    expect(outcome.headers).toContainEqual(['x-stand-in', 'good']);
  });

  it('refuses a redirect to a forbidden or unlisted address, without connecting there', async () => {
    const { client, metrics } = await clientWith(LOCAL_DEV);
    const to = (target: string) =>
      client.request(standIn(`/redirect?to=${encodeURIComponent(target)}`));
    expect(await to('http://169.254.169.254/latest/meta-data/')).toMatchObject({
      ok: false,
      reason: 'redirect_refused',
      cause: 'address_not_allowed',
    });
    expect(await to('http://[::ffff:a9fe:a9fe]/latest/meta-data/')).toMatchObject({
      ok: false,
      reason: 'redirect_refused',
      cause: 'address_not_allowed',
    });
    expect(await to('http://metadata.google.internal/')).toMatchObject({
      ok: false,
      reason: 'redirect_refused',
      cause: 'host_forbidden',
    });
    expect(await denials(metrics, 'redirect_refused')).toBe(3);
    // Local dial confined to the stand-in's address: a hop to the victim's is refused.
    const jailed = (await clientWith({ ...LOCAL_DEV, OUTBOUND_ALLOWLIST: '127.0.0.2/32' })).client;
    expect(
      await jailed.request(
        standIn(`/redirect?to=${encodeURIComponent(`http://127.0.0.1:${port}/ok`)}`),
      ),
    ).toMatchObject({ ok: false, reason: 'redirect_refused', cause: 'address_not_allowlisted' });
    // A hop that passes the checks is followed.
    expect(await jailed.request(standIn('/redirect?to=/ok'))).toMatchObject({
      ok: true,
      status: 200,
      redirects: 1,
    });
  });

  it('caps the whole call at OUTBOUND_TIMEOUT_MS', async () => {
    const { client } = await clientWith({ ...LOCAL_DEV, OUTBOUND_TIMEOUT_MS: '300' });
    const started = Date.now();
    expect(await client.request(standIn('/hang'))).toMatchObject({
      ok: false,
      reason: 'timeout',
    });
    expect(await client.request(standIn('/silent'))).toMatchObject({
      ok: false,
      reason: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('caps the response body at OUTBOUND_MAX_RESPONSE_BYTES, declared or streamed', async () => {
    const { client } = await clientWith({ ...LOCAL_DEV, OUTBOUND_MAX_RESPONSE_BYTES: '1024' });
    expect(await client.request(standIn('/big?size=1024'))).toMatchObject({ ok: true });
    expect(await client.request(standIn('/big?size=1025'))).toMatchObject({
      ok: false,
      reason: 'body_too_large',
    });
    expect(await client.request(standIn('/chunked?size=8192'))).toMatchObject({
      ok: false,
      reason: 'body_too_large',
    });
  });

  it('connects to the address it checked: a DNS answer that changes before the connect cannot re-route it', async () => {
    // The production shape of local dial: OUTBOUND_ALLOWLIST names the ranges it may reach.
    const { client } = await clientWith({
      APP_ENV: 'production',
      JWT_SECRET: 'j'.repeat(40),
      ...LOCAL_DEV,
      OUTBOUND_ALLOWLIST: '127.0.0.2/32',
    });
    // First answer: the stand-in; every later one: the victim on the same port.
    dns.set('ipam.test', (round) => (round === 0 ? ['127.0.0.2'] : ['127.0.0.1']));
    const before = good.requests.length;
    const first = await client.request(`http://ipam.test:${port}/ok`);
    expect(first).toMatchObject({ ok: true, status: 200 });
    expect(good.requests.length).toBe(before + 1);
    expect(good.requests[before].headers.host).toBe(`ipam.test:${port}`);
    expect(dns.queriesFor('ipam.test', 'A')).toBe(1);
    // The next call asks again, gets the victim's address, and is refused before connecting.
    const second: EgressOutcome = await client.request(`http://ipam.test:${port}/ok`);
    expect(second).toMatchObject({ ok: false, reason: 'address_not_allowlisted' });
    expect(dns.queriesFor('ipam.test', 'A')).toBe(2);
  });

  it('is validated at boot: local dial in production needs an allowlist', () => {
    const load = (env: Record<string, string>) => () =>
      loadFindingsConfig({
        DATABASE_URL: 'postgres://unused',
        REDIS_URL: 'redis://unused',
        APP_ENV: 'production',
        JWT_SECRET: 'j'.repeat(40),
        ...env,
      });
    expect(load({ OUTBOUND_ALLOW_LOCAL_DIAL: 'true' })).toThrow(ConfigError);
    expect(load({ OUTBOUND_ALLOW_LOCAL_DIAL: 'true' })).toThrow(
      /OUTBOUND_ALLOW_LOCAL_DIAL with APP_ENV=production needs OUTBOUND_ALLOWLIST/,
    );
    expect(load({ OUTBOUND_ALLOWLIST: 'ipam.example' })).toThrow(
      /OUTBOUND_ALLOWLIST: "ipam.example" is not an IP address or CIDR range/,
    );
    expect(load({})).not.toThrow();
  });
});

function server(
  seen: Seen,
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): http.Server {
  const s = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      handle(req, res);
    });
  });
  s.on('connection', () => (seen.connections += 1));
  return s;
}

function serveStandIn(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  switch (url.pathname) {
    case '/ok':
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
      return;
    case '/echo':
      res
        .writeHead(200, { 'content-type': 'application/json', 'x-stand-in': 'good' })
        .end(JSON.stringify({ echoed: req.method }));
      return;
    case '/redirect':
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/ok' }).end();
      return;
    case '/big': {
      const size = Number(url.searchParams.get('size'));
      res.writeHead(200, { 'content-length': String(size) }).end(Buffer.alloc(size, 'x'));
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
      res.writeHead(200, { 'content-type': 'text/plain' }).write('first bytes, then nothing');
      return; // never ended: only the guard's time cap ends this call
    case '/silent':
      return; // no status line at all
    default:
      res.writeHead(404).end();
  }
}

function listen(s: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, host, () => {
      s.off('error', reject);
      resolve();
    });
  });
}

function close(s: http.Server): Promise<void> {
  s.closeAllConnections();
  return new Promise((resolve) => s.close(() => resolve()));
}
