import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { DEFAULT_EGRESS_POLICY } from '@platform/egress';
import { parseCsr } from '../csr/csr-parser';
import { ecKeyPair, makeCsr, rsaKeyPair } from '../testing/csr-factory';
import { loopbackEgressPolicy } from '../testing/scep-egress';
import { ScepStandIn } from '../testing/scep-stand-in';
import { startScepServer, type RunningScepServer } from '../testing/scepserver';
import { ScepMessageType } from './scep-constants';
import { ScepIssuer } from './scep-issuer';
import { generateScepRequester } from './scep-requester';
import { sha256Fingerprint } from './scep-ca-certificates';

const requester = generateScepRequester();
const egress = { policy: loopbackEgressPolicy() };

function request(keyPair = rsaKeyPair(), cn = 'device-1') {
  const csr = parseCsr(makeCsr({ keyPair, commonName: cn }));
  return { requestId: 'r1', purpose: 'wifi' as const, csr, subjectCommonName: cn };
}

function pem(der: Buffer): string {
  return new X509Certificate(der).toString();
}

describe('ScepIssuer against the real scepserver', () => {
  let server: RunningScepServer;
  beforeAll(async () => {
    server = await startScepServer();
  });
  afterAll(() => server.stop());

  it('issues through PKCSReq and openssl verify accepts the chain', async () => {
    const issuer = new ScepIssuer({ url: server.url, requester }, egress);
    const req = request();
    const outcome = await issuer.issue(req);
    if (outcome.status !== 'issued') throw new Error(`expected issued, got ${outcome.status}`);
    expect(
      new X509Certificate(outcome.certificateDer).publicKey.export({ type: 'spki', format: 'der' }),
    ).toEqual(req.csr.publicKeySpkiDer);
    const dir = mkdtempSync(join(tmpdir(), 'scep-verify-'));
    writeFileSync(join(dir, 'ca.pem'), outcome.chainDer.map(pem).join(''));
    writeFileSync(join(dir, 'leaf.pem'), pem(outcome.certificateDer));
    let out: string;
    try {
      out = execFileSync(
        'openssl',
        ['verify', '-CAfile', join(dir, 'ca.pem'), join(dir, 'leaf.pem')],
        {
          encoding: 'utf8',
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(out).toContain('OK');
    expect(new X509Certificate(server.caCertificatePem).raw).toEqual(outcome.chainDer[0]);
  });

  it('checks the pinned CA fingerprint', async () => {
    const caDer = new X509Certificate(server.caCertificatePem).raw;
    const pinned = new ScepIssuer(
      { url: server.url, requester, caCertFingerprint: sha256Fingerprint(caDer) },
      egress,
    );
    await expect(pinned.issue(request())).resolves.toMatchObject({ status: 'issued' });
    const wrong = new ScepIssuer(
      { url: server.url, requester, caCertFingerprint: 'ab'.repeat(32) },
      egress,
    );
    await expect(wrong.issue(request())).rejects.toMatchObject({
      code: 'scep_ca_certificate_invalid',
      message: expect.stringContaining('pinned') as unknown,
    });
  });

  it('refuses loopback under the default egress policy (the guard is on)', async () => {
    const issuer = new ScepIssuer(
      { url: server.url, requester },
      { policy: DEFAULT_EGRESS_POLICY },
    );
    await expect(issuer.issue(request())).rejects.toMatchObject({ code: 'scep_transport_failed' });
  });
});

describe('ScepIssuer against the real scepserver with a challenge password', () => {
  let server: RunningScepServer;
  beforeAll(async () => {
    server = await startScepServer({ challenge: 'sesame' });
  });
  afterAll(() => server.stop());

  it('maps the CA refusal (FAILURE, failInfo) to a clear scep_refused', async () => {
    const issuer = new ScepIssuer({ url: server.url, requester }, egress);
    await expect(issuer.issue(request())).rejects.toMatchObject({
      code: 'scep_refused',
      message: expect.stringContaining('the CA refused the request') as unknown,
    });
  });
});

describe('ScepIssuer against the loopback PENDING stand-in', () => {
  let ca: ScepStandIn;
  beforeAll(async () => {
    ca = await new ScepStandIn({ pendingPolls: 3 }).start();
  });
  afterAll(() => ca.close());
  beforeEach(() => {
    ca.mode = 'normal';
    ca.pendingPolls = 3;
  });

  it('answers pending, then issues on the CertPoll with the same transactionID', async () => {
    const issuer = new ScepIssuer({ url: ca.url, requester, challengePassword: 'sesame' }, egress);
    const req = request(ecKeyPair());
    const first = await issuer.issue(req);
    if (first.status !== 'pending') throw new Error('expected pending');
    const poll = { ...req, pendingReference: first.pendingReference, pollState: first.pollState };
    await expect(issuer.poll(poll)).resolves.toMatchObject({ status: 'pending' });
    await expect(issuer.poll(poll)).resolves.toMatchObject({ status: 'pending' });
    const done = await issuer.poll(poll);
    expect(done).toMatchObject({ status: 'issued', chainDer: [ca.caCertificateDer] });
    expect(ca.count(ScepMessageType.PKCSReq, first.pendingReference)).toBe(1);
    expect(ca.count(ScepMessageType.CertPoll, first.pendingReference)).toBe(3);
    const pkcsReq = ca.received.find((m) => m.messageType === ScepMessageType.PKCSReq);
    const certPoll = ca.received.find((m) => m.messageType === ScepMessageType.CertPoll);
    expect(certPoll?.subjectHex).toBe(pkcsReq?.subjectHex);
    expect(pkcsReq?.challengePassword).toBe('sesame');
  });

  const hostile: Array<[typeof ca.mode, RegExp]> = [
    ['wrong_signature', /invalid signature/],
    ['wrong_transaction', /another transactionID/],
    ['wrong_nonce', /recipientNonce/],
    ['garbage', /not valid DER|not a PKCS#7/],
    ['other_key', /another key/],
    ['http_error', /HTTP 500/],
    ['oversize', /body_too_large/],
  ];
  it.each(hostile)(
    'a %s answer is a clear PkiError, never a certificate',
    async (mode, message) => {
      ca.mode = mode;
      ca.pendingPolls = 0;
      const issuer = new ScepIssuer({ url: ca.url, requester }, egress);
      const error = (await issuer.issue(request(ecKeyPair())).then(
        (o) => o,
        (e: unknown) => e,
      )) as { code?: string; message?: string; status?: string };
      expect(error.status).toBeUndefined();
      expect(error.code).toMatch(/^scep_(answer_invalid|transport_failed)$/);
      expect(error.message).toMatch(message);
    },
  );

  it('refuses a CA answer for a FAILURE with a clear message and reports unsupported revocation', async () => {
    ca.mode = 'failure';
    const issuer = new ScepIssuer({ url: ca.url, requester }, egress);
    await expect(issuer.issue(request())).rejects.toMatchObject({
      code: 'scep_refused',
      message: expect.stringContaining('badRequest') as unknown,
    });
    await expect(issuer.revoke('0A', 'keyCompromise')).resolves.toEqual({
      status: 'unsupported',
      serial: '0a',
    });
    expect(issuer.capabilities()).toMatchObject({
      kind: 'scep',
      async: true,
      supportsRevoke: false,
    });
  });

  it('sends PKIOperation by GET with SHA-1 and 3DES to a CA without POSTPKIOperation or AES', async () => {
    const legacy = await new ScepStandIn({ caps: ['SHA-1', 'DES3'] }).start();
    try {
      const issuer = new ScepIssuer({ url: legacy.url, requester }, egress);
      await expect(issuer.issue(request(ecKeyPair()))).resolves.toMatchObject({ status: 'issued' });
      expect(legacy.received.map((m) => [m.method, m.messageType])).toEqual([['GET', '19']]);
    } finally {
      await legacy.close();
    }
  });

  it('rejects a bad configuration', () => {
    expect(() => new ScepIssuer({ url: 'nope', requester }, egress)).toThrow(
      /not a valid absolute URL/,
    );
    expect(
      () => new ScepIssuer({ url: ca.url, requester: { ...requester, keyPem: 'x' } }, egress),
    ).toThrow(/not valid PEM/);
  });
});
