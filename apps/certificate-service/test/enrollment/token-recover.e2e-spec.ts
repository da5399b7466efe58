import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { DevicesRepository } from '../../src/modules/devices/devices.repository';
import { continuityMessage } from '../../src/modules/enrollment/enroll-attestation.service';
import { recoverMessage, type RecoverKey } from '../../src/modules/token-recover/recover-proof';
import {
  enrollDevice,
  nonce,
  signedNonce,
  sql,
  startEnrollApp,
  uniqueSerial,
} from '../fixtures/enroll';
import { opensslCsr } from '../fixtures/openssl';
import type { TestApp } from '../support/test-app';

type Signer = (message: Buffer) => Buffer;

const REFUSAL = {
  code: 'token_recover_failed',
  message:
    'the enrollment token cannot be recovered with this proof; ask for a new nonce and sign again',
};

describe('Token recovery with the continuity key - /api/v1/enroll/token-recover (POST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startEnrollApp();
  });
  afterAll(() => t.close());

  const ecKey = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spkiPem = (key: KeyObject) => key.export({ format: 'pem', type: 'spki' }).toString();
  const signerOf =
    (privateKey: KeyObject, hash: string | null = 'sha256'): Signer =>
    (message) =>
      sign(hash, message, privateKey);

  /** A device enrolled through POST /enroll whose continuity key is pinned (devices module). */
  async function pinnedDevice(publicKey: KeyObject) {
    const device = await enrollDevice(t);
    const row = await t.app.get(DevicesRepository).findBySerial(device.serial);
    await t.app.get(DevicesRepository).update(row!.id, { continuityKey: spkiPem(publicKey) });
    return device;
  }

  /** POSTs a recovery for `serial`, signing the message of `key`/`serial`/nonce with `signer`. */
  async function recover(
    serial: string,
    signer: Signer,
    options: { key?: RecoverKey; nonce?: string; signedSerial?: string } = {},
  ) {
    const key = options.key ?? 'continuity';
    const n = options.nonce ?? (await nonce(t));
    const signature = signer(recoverMessage(key, options.signedSerial ?? serial, n));
    return t.http
      .post('/api/v1/enroll/token-recover')
      .send({ serial, nonce: n, key, signature: signature.toString('base64') });
  }

  /** A recovery expected to succeed: its new token. */
  async function recovered(
    serial: string,
    signer: Signer,
    options: { nonce?: string } = {},
  ): Promise<string> {
    const res = await recover(serial, signer, options);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { serial, enrollment_token: expect.stringMatching(/^wet_/) },
    });
    return res.body.enrollment_token as string;
  }

  const purposes = (serial: string, token: string) =>
    t.http.post('/api/v1/enroll/purposes').send({ serial, enrollment_token: token });

  const tokenHash = async (serial: string) =>
    (
      await sql<{ enrollment_token_hash: string }>(
        t,
        'SELECT enrollment_token_hash FROM devices WHERE serial = $1',
        [serial],
      )
    )[0].enrollment_token_hash;

  it('gives a new token for a signature with the pinned key; the old token stops working', async () => {
    const { publicKey, privateKey } = ecKey();
    const device = await pinnedDevice(publicKey);
    await purposes(device.serial, device.enrollmentToken).expect(200);

    const fresh = await recovered(device.serial, signerOf(privateKey));
    expect(fresh).not.toBe(device.enrollmentToken);
    expect(await tokenHash(device.serial)).toBe(createHash('sha256').update(fresh).digest('hex'));

    expect((await purposes(device.serial, device.enrollmentToken).expect(401)).body.code).toBe(
      'enrollment_token_invalid',
    );
    await purposes(device.serial, fresh).expect(200);

    const audit = await sql(
      t,
      `SELECT actor, actor_kind, target, details FROM audit_log
        WHERE action = 'device.enrollment_token_recover' AND target = $1`,
      [device.serial],
    );
    expect(audit).toEqual([
      {
        actor: `device:${device.serial}`,
        actor_kind: 'device',
        target: device.serial,
        details: { key: 'continuity' },
      },
    ]);
    const [row] = await sql<{ enrollment_token_rotated_at: Date | null }>(
      t,
      'SELECT enrollment_token_rotated_at FROM devices WHERE serial = $1',
      [device.serial],
    );
    expect(row.enrollment_token_rotated_at).not.toBeNull();
    const line = t.logs
      .accessLines()
      .find((l) => l.route === '/api/v1/enroll/token-recover' && l.serial === device.serial);
    expect(line).toMatchObject({ status: 200 });
    expect(JSON.stringify(t.logs.lines())).not.toContain(fresh);
  });

  it('works with the continuity key that POST /enroll pinned', async () => {
    const { publicKey, privateKey } = ecKey();
    const serial = uniqueSerial('CK');
    const n = await nonce(t);
    const enrolled = await t.http
      .post('/api/v1/enroll')
      .send({
        csr: opensslCsr('ec', serial).csrPem,
        serial,
        nonce: n,
        platform: 'linux',
        continuity_key: spkiPem(publicKey),
        continuity_signature: sign('sha256', continuityMessage(serial, n), privateKey).toString(
          'base64',
        ),
      })
      .expect(201);
    const fresh = await recovered(serial, signerOf(privateKey));
    await purposes(serial, enrolled.body.enrollment_token as string).expect(401);
    await purposes(serial, fresh).expect(200);
    // The key pinned by enrolling is the only one: a different key is refused.
    const res = await recover(serial, signerOf(ecKey().privateKey));
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: REFUSAL });
  });

  it.each([
    ['Ed25519', () => generateKeyPairSync('ed25519'), null],
    ['RSA-2048 PKCS#1 v1.5', () => generateKeyPairSync('rsa', { modulusLength: 2048 }), 'sha256'],
    ['ECDSA P-384', () => generateKeyPairSync('ec', { namedCurve: 'P-384' }), 'sha256'],
  ] as const)('accepts a pinned %s continuity key', async (_label, make, hash) => {
    const { publicKey, privateKey } = make();
    const device = await pinnedDevice(publicKey);
    const fresh = await recovered(device.serial, signerOf(privateKey, hash));
    await purposes(device.serial, fresh).expect(200);
  });

  it('lets one of two concurrent recoveries with the same nonce through', async () => {
    const { publicKey, privateKey } = ecKey();
    const device = await pinnedDevice(publicKey);
    const n = await nonce(t);
    const answers = await Promise.all([
      recover(device.serial, signerOf(privateKey), { nonce: n }),
      recover(device.serial, signerOf(privateKey), { nonce: n }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
    const fresh = answers.find((a) => a.status === 200)!.body.enrollment_token as string;
    await purposes(device.serial, fresh).expect(200);
    await purposes(device.serial, device.enrollmentToken).expect(401);
  });

  it('leaves exactly the last of two concurrent recoveries working', async () => {
    const { publicKey, privateKey } = ecKey();
    const device = await pinnedDevice(publicKey);
    const tokens = await Promise.all([
      recovered(device.serial, signerOf(privateKey)),
      recovered(device.serial, signerOf(privateKey)),
    ]);
    const working = await Promise.all(
      tokens.map(async (token) => (await purposes(device.serial, token)).status),
    );
    expect([...working].sort()).toEqual([200, 401]);
    const [row] = await sql<{ hash: string }>(
      t,
      'SELECT enrollment_token_hash AS hash FROM devices WHERE serial = $1',
      [device.serial],
    );
    const winner = tokens[working.indexOf(200)];
    expect(row.hash).toBe(createHash('sha256').update(winner).digest('hex'));
  });

  describe('refuses with one answer and changes nothing', () => {
    async function expectRefused(
      res: { status: number; body: unknown },
      serial: string | null,
      oldToken: string | null,
      cause: string,
    ) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(REFUSAL);
      if (serial && oldToken) await purposes(serial, oldToken).expect(200);
      const warn = t.logs
        .lines()
        .filter((l) => l.msg === 'enrollment token recovery refused')
        .pop();
      expect(warn).toMatchObject({ level: 'warn', cause });
    }

    it('a signature by another key', async () => {
      const device = await pinnedDevice(ecKey().publicKey);
      const res = await recover(device.serial, signerOf(ecKey().privateKey));
      await expectRefused(res, device.serial, device.enrollmentToken, 'signature_invalid');
    });

    it("another device's pinned key, over its own serial or this one", async () => {
      const mine = ecKey();
      const device = await pinnedDevice(mine.publicKey);
      const other = ecKey();
      const neighbour = await pinnedDevice(other.publicKey);
      for (const signedSerial of [neighbour.serial, device.serial]) {
        const res = await recover(device.serial, signerOf(other.privateKey), { signedSerial });
        await expectRefused(res, device.serial, device.enrollmentToken, 'signature_invalid');
      }
      // The pinned key over another serial's message is no proof for this serial either.
      const res = await recover(device.serial, signerOf(mine.privateKey), {
        signedSerial: neighbour.serial,
      });
      await expectRefused(res, device.serial, device.enrollmentToken, 'signature_invalid');
      await purposes(neighbour.serial, neighbour.enrollmentToken).expect(200);
    });

    it('an unknown serial, identically', async () => {
      const { privateKey } = ecKey();
      const res = await recover(uniqueSerial('NOPE'), signerOf(privateKey));
      await expectRefused(res, null, null, 'device_unknown');
    });

    it('a device without the chosen key pinned (no continuity key; no AK)', async () => {
      const { publicKey, privateKey } = ecKey();
      const bare = await enrollDevice(t);
      await expectRefused(
        await recover(bare.serial, signerOf(privateKey)),
        bare.serial,
        bare.enrollmentToken,
        'key_not_pinned',
      );
      const pinned = await pinnedDevice(publicKey);
      await expectRefused(
        await recover(pinned.serial, signerOf(privateKey), { key: 'ak' }),
        pinned.serial,
        pinned.enrollmentToken,
        'key_not_pinned',
      );
    });

    it('a replayed nonce, after a success and after a failure', async () => {
      const { publicKey, privateKey } = ecKey();
      const device = await pinnedDevice(publicKey);
      const n = await nonce(t);
      const fresh = await recovered(device.serial, signerOf(privateKey), { nonce: n });
      await expectRefused(
        await recover(device.serial, signerOf(privateKey), { nonce: n }),
        device.serial,
        fresh,
        'nonce_invalid',
      );

      // A refused attempt spends its nonce too: the right signature cannot follow it.
      const burnt = await nonce(t);
      await expectRefused(
        await recover(device.serial, signerOf(ecKey().privateKey), { nonce: burnt }),
        device.serial,
        fresh,
        'signature_invalid',
      );
      await expectRefused(
        await recover(device.serial, signerOf(privateKey), { nonce: burnt }),
        device.serial,
        fresh,
        'nonce_invalid',
      );
    });

    it('an expired or made-up nonce', async () => {
      const { publicKey, privateKey } = ecKey();
      const device = await pinnedDevice(publicKey);
      const n = signedNonce('enroll', new Date(Date.now() - 1000));
      for (const stale of [n, 'made-up-nonce']) {
        await expectRefused(
          await recover(device.serial, signerOf(privateKey), { nonce: stale }),
          device.serial,
          device.enrollmentToken,
          'nonce_invalid',
        );
      }
    });
  });

  it.each([
    ['no key', { key: undefined }],
    ['an unknown key', { key: 'tpm' }],
    ['a signature that is not base64', { signature: 'not base64!' }],
    ['an empty signature', { signature: '' }],
    ['an oversized signature', { signature: 'A'.repeat(2000) }],
    ['a serial with a control character', { serial: 'SN\u0001X' }],
    ['no nonce', { nonce: undefined }],
    ['a number as nonce', { nonce: 42 }],
  ])('answers 400 invalid_request for %s', async (_label, change) => {
    const res = await t.http
      .post('/api/v1/enroll/token-recover')
      .send({
        serial: 'SN-SHAPE',
        nonce: 'n',
        key: 'continuity',
        signature: Buffer.alloc(64, 1).toString('base64'),
        ...change,
      })
      .expect(400);
    expect(res.body.code).toBe('invalid_request');
  });
});

describe('Token recovery - the /enroll* limit per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startEnrollApp({ env: { CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '2' } });
  });
  afterAll(() => t.close());

  it('answers 429 rate_limited past the budget, before looking at the proof', async () => {
    const body = {
      serial: 'SN-LIMIT',
      nonce: 'made-up',
      key: 'continuity',
      signature: Buffer.alloc(64, 1).toString('base64'),
    };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await t.http.post('/api/v1/enroll/token-recover').send(body)).status);
    }
    expect(statuses).toEqual([403, 403, 429]);
    const limited = await t.http.post('/api/v1/enroll/token-recover').send(body).expect(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
