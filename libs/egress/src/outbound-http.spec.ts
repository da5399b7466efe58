import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_EGRESS_POLICY, type EgressPolicy } from './egress-policy';
import type { EgressRefusalReason } from './egress-guard';
import { createOutboundHttp, guardedRequest } from './outbound-http';

describe('service-side calls: createOutboundHttp and guardedRequest', () => {
  let server: http.Server;
  let base: string;
  const seen: Array<{ method?: string; headers: http.IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          method: req.method,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        if (req.url === '/moved') res.writeHead(301, { location: '/ok' }).end();
        else res.writeHead(200, { 'x-answer': 'yes' }).end('answer');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const local: EgressPolicy = { ...DEFAULT_EGRESS_POLICY, allowHttp: true, allowLocalDial: true };

  it('sends method, headers (record or pairs) and a text body; answers status, headers, body', async () => {
    const client = createOutboundHttp({ policy: local, caller: 'test' });
    const outcome = await client.request(`${base}/ok`, {
      method: 'PUT',
      headers: { 'content-type': 'text/plain', 'x-one': '1' },
      body: 'héllo',
    });
    expect(outcome).toMatchObject({ ok: true, status: 200, redirects: 0 });
    if (!outcome.ok) return;
    expect(Buffer.from(outcome.body).toString()).toBe('answer');
    expect(outcome.headers).toContainEqual(['x-answer', 'yes']);
    expect(seen[seen.length - 1]).toMatchObject({
      method: 'PUT',
      body: 'héllo',
      headers: expect.objectContaining({ 'x-one': '1', 'content-length': '6' }),
    });
    await client.request(`${base}/ok`, { headers: [['x-two', '2']] });
    expect(seen[seen.length - 1]).toMatchObject({
      method: 'GET',
      headers: expect.objectContaining({ 'x-two': '2' }),
    });
  });

  it('refuses without throwing, counts and logs the refusal under the caller', async () => {
    const counted: EgressRefusalReason[] = [];
    const logged: Array<{ fields: object; message: string }> = [];
    const client = createOutboundHttp({
      policy: DEFAULT_EGRESS_POLICY,
      caller: 'findings-service',
      denials: { count: (reason) => counted.push(reason) },
      logger: { warn: (fields, message) => logged.push({ fields, message }) },
    });
    const before = seen.length;
    expect(await client.request(`${base}/ok?token=secret`, { caller: 'netbox-import' })).toEqual({
      ok: false,
      reason: 'scheme_not_allowed',
      message: 'scheme http: is not allowed',
    });
    expect(await client.request('https://127.0.0.1/')).toMatchObject({
      ok: false,
      reason: 'address_not_allowed',
    });
    expect(
      await client.request('https://x.example/', { method: 'GET', headers: { host: 'y' } }),
    ).toMatchObject({
      ok: false,
      reason: 'header_not_allowed',
    });
    expect(seen.length).toBe(before);
    expect(counted).toEqual(['scheme_not_allowed', 'address_not_allowed', 'header_not_allowed']);
    expect(logged[0]).toEqual({
      fields: {
        caller: 'netbox-import',
        reason: 'scheme_not_allowed',
        cause: undefined,
        method: 'GET',
        host: `127.0.0.1:${new URL(base).port}`,
      },
      message: 'egress refused: scheme http: is not allowed',
    });
    expect(JSON.stringify(logged)).not.toContain('secret');
    expect(logged[1].fields).toMatchObject({ caller: 'findings-service' });
    expect(client.check('https://localhost/')).toMatchObject({
      ok: false,
      reason: 'host_forbidden',
    });
    expect(client.check('https://ipam.example.com/api/')).toMatchObject({ ok: true });
  });

  it('guardedRequest: one call under a policy; no redirects passes the 3xx through', async () => {
    const context = { caller: 'catalog', permittedHosts: 'any' as const };
    const followed = await guardedRequest(local, context, { method: 'GET', url: `${base}/moved` });
    expect(followed).toMatchObject({ ok: true, status: 200, redirects: 1 });
    const passed = await guardedRequest({ ...local, maxRedirects: 0 }, context, {
      method: 'GET',
      url: `${base}/moved`,
    });
    expect(passed).toMatchObject({ ok: true, status: 301, redirects: 0 });
  });
});
