import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { DEFAULT_EGRESS_POLICY, type EgressPolicy } from './egress-policy';
import { createOutboundHttp } from './outbound-http';

/** A self-signed P-256 certificate for 127.0.0.1 from the real `openssl req -x509`. */
function selfSigned(name: string, eku: string): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'egress-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
        ...['-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem'), '-days', '1'],
        ...['-subj', `/CN=${name}`, '-addext', 'subjectAltName=IP:127.0.0.1'],
        ...['-addext', `extendedKeyUsage=${eku}`],
      ],
      { stdio: 'pipe' },
    );
    return {
      cert: readFileSync(join(dir, 'c.pem'), 'utf8'),
      key: readFileSync(join(dir, 'k.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('pinned connection TLS options: exclusive trust anchors and a client certificate', () => {
  const server = selfSigned('127.0.0.1', 'serverAuth');
  const other = selfSigned('127.0.0.1', 'serverAuth');
  const client = selfSigned('egress-client', 'clientAuth');
  let tls: https.Server;
  let url: string;
  const policy: EgressPolicy = { ...DEFAULT_EGRESS_POLICY, allowLocalDial: true, timeoutMs: 5000 };

  beforeAll(async () => {
    tls = https.createServer(
      { ...server, requestCert: true, rejectUnauthorized: false, ca: [client.cert] },
      (req, res) => {
        const authorized = (req.socket as TLSSocket).authorized;
        res.writeHead(authorized ? 200 : 401).end(authorized ? 'client ok' : 'no client');
      },
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => tls.close(() => resolve())));

  it('trusts only the given anchors: the right one passes, another one fails even with extraCa', async () => {
    const right = createOutboundHttp({ caller: 't', policy, trustAnchors: [server.cert] });
    expect(await right.request(url)).toMatchObject({ ok: true, status: 401 });
    const wrong = createOutboundHttp({
      caller: 't',
      policy,
      extraCa: [server.cert],
      trustAnchors: [other.cert],
    });
    expect(await wrong.request(url)).toMatchObject({ ok: false, reason: 'tls_failed' });
  });

  it('presents the client certificate when given', async () => {
    const withClient = createOutboundHttp({
      caller: 't',
      policy,
      trustAnchors: [server.cert],
      clientTls: client,
    });
    const outcome = await withClient.request(url);
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    if (outcome.ok) expect(Buffer.from(outcome.body).toString()).toBe('client ok');
  });
});
