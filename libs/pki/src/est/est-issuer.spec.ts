import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOutboundHttp, DEFAULT_EGRESS_POLICY } from '@platform/egress';
import { toPem } from '../der/pem';
import { parseCsr } from '../csr/csr-parser';
import { ecKeyPair, makeCsr } from '../testing/csr-factory';
import { EstStandIn } from '../testing/est-stand-in';
import { PkiError } from '../pki.errors';
import type { EstIssuerConfig } from './est-config';
import { EstIssuer } from './est-issuer';
import type { IssueRequest } from '../issuer/certificate-issuer';

const policy = { ...DEFAULT_EGRESS_POLICY, allowLocalDial: true, timeoutMs: 5000 };

function httpFor(standIn: EstStandIn, clientTls?: { cert: string; key: string }) {
  return createOutboundHttp({
    caller: 'est-spec',
    policy,
    trustAnchors: [standIn.tls.certPem],
    ...(clientTls ? { clientTls } : {}),
  });
}

function request(commonName = 'DEVICE-1', renewalOf?: string): IssueRequest {
  const keys = ecKeyPair();
  const csr = parseCsr(makeCsr({ keyPair: keys, commonName }));
  return {
    requestId: 'req-1',
    purpose: 'wifi',
    csr,
    subjectCommonName: commonName,
    ...(renewalOf ? { renewalOf } : {}),
  };
}

function opensslVerify(chainPem: string, leafDer: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'est-verify-'));
  try {
    writeFileSync(join(dir, 'ca.pem'), chainPem);
    writeFileSync(join(dir, 'leaf.pem'), toPem('CERTIFICATE', leafDer));
    return execFileSync(
      'openssl',
      ['verify', '-CAfile', join(dir, 'ca.pem'), join(dir, 'leaf.pem')],
      {
        encoding: 'utf8',
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof PkiError ? error.code : `other: ${String(error)}`;
  }
}

describe('EstIssuer against the loopback EST stand-in (real TLS)', () => {
  let standIn: EstStandIn;
  const basic: EstIssuerConfig['auth'] = { mode: 'basic', username: 'ra', password: 'ra-secret' };

  beforeAll(async () => {
    standIn = await EstStandIn.start({ basic: { username: 'ra', password: 'ra-secret' } });
  });
  afterAll(() => standIn.close());
  beforeEach(() => standIn.misbehave('none'));

  it('enrolls with HTTP basic; openssl verify accepts the chain; the key is the CSR key', async () => {
    const issuer = new EstIssuer({ url: standIn.url, auth: basic }, httpFor(standIn));
    const req = request();
    const outcome = await issuer.issue(req);
    expect(outcome.status).toBe('issued');
    if (outcome.status !== 'issued') return;
    expect(outcome.chainDer).toHaveLength(2);
    const chainPem = outcome.chainDer.map((der) => toPem('CERTIFICATE', der)).join('');
    expect(opensslVerify(chainPem, outcome.certificateDer)).toContain(': OK');
    expect(standIn.calls.at(-1)).toEqual({
      operation: 'simpleenroll',
      label: undefined,
      auth: 'basic',
    });
  });

  it('re-enrolls (simplereenroll) for a renewal, under a label, with a client certificate', async () => {
    const client = standIn.clientCertificate();
    const issuer = new EstIssuer(
      { url: standIn.url, label: 'wifi-ca', auth: { mode: 'client_certificate' } },
      httpFor(standIn, { cert: client.certPem, key: client.keyPem }),
    );
    const outcome = await issuer.issue(request('DEVICE-2', 'abcd'));
    expect(outcome.status).toBe('issued');
    expect(standIn.calls.at(-1)).toEqual({
      operation: 'simplereenroll',
      label: 'wifi-ca',
      auth: 'client_certificate',
    });
  });

  it('wrong password: est_unauthorized; no credentials at all: est_unauthorized', async () => {
    const wrong = new EstIssuer(
      { url: standIn.url, auth: { mode: 'basic', username: 'ra', password: 'nope' } },
      httpFor(standIn),
    );
    expect(await codeOf(wrong.issue(request()))).toBe('est_unauthorized');
    const none = new EstIssuer(
      { url: standIn.url, auth: { mode: 'client_certificate' } },
      httpFor(standIn),
    );
    expect(await codeOf(none.issue(request()))).toBe('est_unauthorized');
  });

  it('hostile answers are typed errors, never an issued certificate', async () => {
    const issuer = new EstIssuer({ url: standIn.url, auth: basic }, httpFor(standIn));
    const expected = {
      wrong_key: 'est_key_mismatch',
      foreign_ca: 'est_answer_invalid',
      garbage: 'est_answer_invalid',
      not_pkcs7: 'est_answer_invalid',
      server_error: 'est_refused',
      pending: 'est_pending_unsupported',
    } as const;
    for (const [behaviour, code] of Object.entries(expected)) {
      standIn.misbehave(behaviour as keyof typeof expected);
      expect({ behaviour, code: await codeOf(issuer.issue(request())) }).toEqual({
        behaviour,
        code,
      });
    }
    standIn.misbehave('wrong_key');
    const rows = await issuer.issueMany([request(), request()]);
    expect(rows.map((r) => r.status)).toEqual(['error', 'error']);
  });

  it('TLS is always verified: another trust anchor fails (est_unreachable, tls_failed)', async () => {
    const other = await EstStandIn.start({ basic: { username: 'ra', password: 'ra-secret' } });
    try {
      const issuer = new EstIssuer(
        { url: other.url, auth: basic },
        createOutboundHttp({ caller: 'est-spec', policy, trustAnchors: [standIn.tls.certPem] }),
      );
      const error = await issuer.issue(request()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PkiError);
      expect((error as PkiError).code).toBe('est_unreachable');
      expect((error as PkiError).details).toEqual({ reason: 'tls_failed' });
    } finally {
      await other.close();
    }
  });

  it('revoke is unsupported (EST has no revoke operation)', async () => {
    const issuer = new EstIssuer({ url: standIn.url, auth: basic }, httpFor(standIn));
    expect(await issuer.revoke('0a0b', 'keyCompromise')).toEqual({
      status: 'unsupported',
      serial: '0a0b',
    });
    expect(issuer.capabilities()).toMatchObject({
      kind: 'est',
      async: false,
      supportsRevoke: false,
    });
  });
});
