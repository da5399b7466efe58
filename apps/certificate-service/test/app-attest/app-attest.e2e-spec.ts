import { randomBytes } from 'node:crypto';
import {
  encodeTestCbor,
  testAppAttestIntermediate,
  testAppAttestRoot,
  type TestCborValue,
} from '@platform/pki/testing';
import { sql, startEnrollApp, uniqueSerial } from '../fixtures/enroll';
import type { TestApp } from '../support/test-app';
import {
  appAttestChallenge,
  appAttestPki,
  appAttestReceipt,
  type AppAttestPki,
} from './app-attest-fixture';

const RECEIPT = '/api/v1/enroll/app-attest';

describe('App attestation - /api/v1/enroll/app-attest (POST)', () => {
  let t: TestApp;
  let pki: AppAttestPki;
  beforeAll(async () => {
    pki = appAttestPki();
    t = await startEnrollApp({ env: pki.env });
  });
  afterAll(async () => {
    await t.close();
    pki.dispose();
  });

  const attestationCount = async (serial: string) =>
    Number(
      (
        await sql<{ n: string }>(
          t,
          'SELECT count(*) AS n FROM app_attestations WHERE serial = $1',
          [serial],
        )
      )[0].n,
    );

  const refused = async (body: Record<string, unknown>, reason: RegExp) => {
    const res = await t.http.post(RECEIPT).send(body).expect(403);
    expect(res.body).toEqual({ code: 'app_attest_invalid', message: expect.any(String) });
    expect(
      t.logs
        .lines()
        .some((l) => l.msg === 'app attestation refused' && reason.test(String(l.reason))),
    ).toBe(true);
    expect(JSON.stringify(res.body)).not.toMatch(reason);
    expect(await attestationCount(String(body.serial))).toBe(0);
  };

  it('issues a one-use challenge of 32 random bytes and stores only its hash', async () => {
    const serial = uniqueSerial('MAC');
    const res = await t.http.post(`${RECEIPT}/challenge`).send({ serial }).expect(201);
    expect(res.body).toEqual({ challenge: expect.any(String), expires_at: expect.any(String) });
    expect(new Date(res.body.expires_at).getTime()).toBeGreaterThan(Date.now());
    const rows = await sql<{ challenge_hash: string; serial: string }>(
      t,
      'SELECT challenge_hash, serial FROM app_attest_challenges WHERE serial = $1',
      [serial],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].challenge_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].challenge_hash).not.toContain(res.body.challenge);
  });

  it('verifies an App Attest object chained to the configured root and stores it for one enroll', async () => {
    const serial = uniqueSerial('MAC');
    const body = await appAttestReceipt(t, pki, serial);
    const res = await t.http
      .post(RECEIPT)
      .send({ ...body, os_version: '27.0.1' })
      .expect(201);
    expect(res.body).toEqual({
      attestation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      verdict: 'verified',
      expires_at: expect.any(String),
    });
    const expiresIn = new Date(res.body.expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(3500_000);
    expect(expiresIn).toBeLessThanOrEqual(3600_000);
    const [row] = await sql<Record<string, unknown>>(
      t,
      'SELECT * FROM app_attestations WHERE id = $1',
      [res.body.attestation_id],
    );
    expect(row).toMatchObject({
      serial,
      key_id: Buffer.from(body.key_id, 'base64').toString('hex'),
      app_id: 'ABCDE12345.com.example.certagent',
      environment: 'production',
      verdict: 'verified',
      os_version: '27.0.1',
      used_at: null,
    });
  });

  it('refuses a replayed challenge (one use, even after a success)', async () => {
    const serial = uniqueSerial('MAC');
    const body = await appAttestReceipt(t, pki, serial);
    await t.http.post(RECEIPT).send(body).expect(201);
    const res = await t.http.post(RECEIPT).send(body).expect(403);
    expect(res.body.code).toBe('app_attest_invalid');
    expect(await attestationCount(serial)).toBe(1);
  });

  it('refuses an attestation over another challenge', async () => {
    const serial = uniqueSerial('MAC');
    const body = await appAttestReceipt(t, pki, serial);
    const other = await appAttestChallenge(t, serial);
    await refused({ ...body, challenge: other }, /nonce/);
  });

  it('refuses a challenge issued for another serial', async () => {
    const serial = uniqueSerial('MAC');
    const body = await appAttestReceipt(t, pki, uniqueSerial('MAC'));
    await refused({ ...body, serial }, /challenge unknown/);
  });

  it('refuses an unknown challenge', async () => {
    const serial = uniqueSerial('MAC');
    const body = await appAttestReceipt(t, pki, serial);
    await refused(
      { ...body, challenge: randomBytes(32).toString('base64url') },
      /challenge unknown/,
    );
  });

  it('refuses a chain to another root', async () => {
    const serial = uniqueSerial('MAC');
    const rogue = testAppAttestIntermediate(testAppAttestRoot('Rogue Root'));
    const body = await appAttestReceipt(t, { ...pki, intermediate: rogue }, serial);
    await refused(body, /configured App Attest root/);
  });

  it('refuses another key_id', async () => {
    const serial = uniqueSerial('MAC');
    const body = await appAttestReceipt(t, pki, serial);
    await refused({ ...body, key_id: randomBytes(32).toString('base64') }, /key_id/);
  });

  it('refuses an App ID that is not configured', async () => {
    const serial = uniqueSerial('MAC');
    const body = await appAttestReceipt(t, pki, serial, { appId: 'ZZZZZ99999.com.evil.agent' });
    await refused(body, /App ID/);
  });

  it('refuses a nonzero counter', async () => {
    const serial = uniqueSerial('MAC');
    await refused(await appAttestReceipt(t, pki, serial, { signCount: 5 }), /counter/);
  });

  it('refuses the development environment unless allowed', async () => {
    const serial = uniqueSerial('MAC');
    const body = await appAttestReceipt(t, pki, serial, {
      aaguid: Buffer.from('appattestdevelop'),
    });
    await refused(body, /aaguid/);
  });

  it('answers hostile or truncated CBOR with 403, never 5xx', async () => {
    const serial = uniqueSerial('MAC');
    const good = await appAttestReceipt(t, pki, serial);
    const raw = Buffer.from(good.attestation, 'base64');
    const hostile = [
      raw.subarray(0, raw.length >> 1),
      Buffer.from('9f9f9f9f9f9f9f9f9f9f', 'hex'), // indefinite arrays
      Buffer.concat([Buffer.alloc(500, 0x81), Buffer.from([0])]), // 500 nested arrays
      Buffer.from('ba7fffffff', 'hex'), // a map claiming 2^31 entries
      Buffer.from('5b00000001000000000102', 'hex'), // a byte string claiming 4 GiB
      Buffer.from('c0781a323031332d30332d32315432303a30343a30305a', 'hex'), // a tag
      encodeTestCbor(new Map([['fmt', 'apple-appattest']])),
      encodeTestCbor(
        new Map<string, TestCborValue>([
          ['fmt', 'apple-appattest'],
          [
            'attStmt',
            new Map<string, TestCborValue>([
              ['x5c', [Buffer.alloc(3000, 0x30)]],
              ['receipt', Buffer.alloc(1)],
            ]),
          ],
          ['authData', Buffer.alloc(37)],
        ]),
      ),
      randomBytes(2000),
    ];
    for (const attestation of hostile) {
      const challenge = await appAttestChallenge(t, serial);
      const res = await t.http
        .post(RECEIPT)
        .send({ ...good, challenge, attestation: attestation.toString('base64') });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('app_attest_invalid');
    }
    expect(await attestationCount(serial)).toBe(0);
  });

  it.each([
    ['no serial', { serial: undefined }],
    ['attestation not base64', { attestation: '***' }],
    ['attestation over the size bound', { attestation: 'A'.repeat(30_000) }],
    ['key_id not base64', { key_id: 'not base64!' }],
    ['os_version not a version', { os_version: 'Sonoma' }],
    ['an unknown field', { extra: 1 }],
  ])('answers 400 invalid_request for %s', async (_what, change) => {
    const body = {
      serial: 'MAC-1',
      challenge: 'c',
      key_id: 'AAAA',
      attestation: 'AAAA',
      ...change,
    };
    const res = await t.http.post(RECEIPT).send(body).expect(400);
    expect(res.body.code).toBe('invalid_request');
  });
});

describe('App attestation without configured roots', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startEnrollApp();
  });
  afterAll(() => t.close());

  it('refuses every receipt with app_attest_invalid (reason: not configured)', async () => {
    const pki = appAttestPki();
    const serial = uniqueSerial('MAC');
    const body = await appAttestReceipt(t, pki, serial).finally(() => pki.dispose());
    const res = await t.http.post(RECEIPT).send(body).expect(403);
    expect(res.body.code).toBe('app_attest_invalid');
    expect(t.logs.lines().some((l) => /not configured/.test(String(l.reason)))).toBe(true);
  });
});
