import { fromPem, toPem } from '@platform/pki';
import { flipLastByte } from '@platform/pki/testing';
import {
  enrollDevice,
  nonce,
  rowCounts,
  signedNonce,
  sql,
  startEnrollApp,
  uniqueSerial,
} from '../fixtures/enroll';
import { opensslCsr } from '../fixtures/openssl';
import type { TestApp } from '../support/test-app';

interface RequestRow {
  purpose: string;
  status: string;
  key_algorithm: string;
  registered_during_block: boolean;
  requested_by: string;
  source_auth: string;
}

describe('Enroll device - /api/v1/enroll (POST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startEnrollApp();
  });
  afterAll(() => t.close());

  const requestOf = async (id: string) =>
    (await sql<RequestRow>(t, 'SELECT * FROM certificate_requests WHERE id = $1', [id]))[0];

  it.each(['ec', 'rsa'] as const)(
    'registers a device with an openssl %s CSR and a wifi request awaiting a decision',
    async (kind) => {
      const serial = uniqueSerial();
      const csr = opensslCsr(kind, serial);
      const res = await t.http
        .post('/api/v1/enroll')
        .send({
          csr: csr.csrPem,
          serial,
          nonce: await nonce(t),
          agent_version: '2.4.1',
          platform: 'linux',
          hostname: 'h1',
        })
        .expect(201);
      expect(res.body).toEqual({
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: 'pending',
        purpose: 'wifi',
        serial,
        agent_secret: expect.stringMatching(/^was_/),
        enrollment_token: expect.stringMatching(/^wet_/),
      });
      const row = await requestOf(res.body.request_id);
      expect(row).toMatchObject({
        purpose: 'wifi',
        status: 'pending',
        key_algorithm: kind,
        registered_during_block: false,
        requested_by: `device:${serial}`,
        source_auth: 'not_checked',
      });
      const [device] = await sql<{
        assigned_purposes: string[];
        identity_key: string;
        enrollment_token_hash: string;
      }>(
        t,
        'SELECT assigned_purposes, identity_key, enrollment_token_hash FROM devices WHERE serial = $1',
        [serial],
      );
      expect(device.assigned_purposes).toEqual(['wifi']);
      expect(device.identity_key).toBe(`sn:${serial}`);
      expect(device.enrollment_token_hash).not.toContain(res.body.enrollment_token);
    },
  );

  it('puts the serial on the access line', async () => {
    const device = await enrollDevice(t);
    const line = t.logs
      .accessLines()
      .find((l) => l.route === '/api/v1/enroll' && l.serial === device.serial);
    expect(line).toBeDefined();
  });

  it('needs the enrollment token for a known device and supersedes its pending request', async () => {
    const first = await enrollDevice(t);
    const csr = opensslCsr('ec', first.serial);
    const res = await t.http
      .post('/api/v1/enroll')
      .send({
        csr: csr.csrPem,
        serial: first.serial,
        nonce: await nonce(t),
        enrollment_token: first.enrollmentToken,
        agent_version: '2.5.0',
      })
      .expect(201);
    expect(res.body.enrollment_token).toBeUndefined();
    expect((await requestOf(first.requestId)).status).toBe('superseded');
    expect((await requestOf(res.body.request_id)).status).toBe('pending');
  });

  it.each([
    ['missing', undefined],
    ['wrong', 'wet_wrong-token'],
  ])(
    'refuses a known device with a %s enrollment token and stores nothing',
    async (_label, token) => {
      const device = await enrollDevice(t);
      const before = await rowCounts(t);
      const res = await t.http
        .post('/api/v1/enroll')
        .send({
          csr: device.csr.csrPem,
          serial: device.serial,
          nonce: await nonce(t),
          ...(token ? { enrollment_token: token } : {}),
        })
        .expect(401);
      expect(res.body.code).toBe('enrollment_token_invalid');
      expect(await rowCounts(t)).toEqual(before);
    },
  );

  it('refuses a garbage CSR with csr_invalid and stores nothing', async () => {
    const before = await rowCounts(t);
    const res = await t.http
      .post('/api/v1/enroll')
      .send({
        csr: '-----BEGIN CERTIFICATE REQUEST-----\nZ2FyYmFnZQ==\n-----END CERTIFICATE REQUEST-----\n',
        serial: uniqueSerial(),
        nonce: await nonce(t),
      })
      .expect(400);
    expect(res.body.code).toBe('csr_invalid');
    expect(await rowCounts(t)).toEqual(before);
  });

  it('refuses a CSR whose signature does not match and stores nothing', async () => {
    const serial = uniqueSerial();
    const der = fromPem(opensslCsr('ec', serial).csrPem, ['CERTIFICATE REQUEST']);
    const before = await rowCounts(t);
    const res = await t.http
      .post('/api/v1/enroll')
      .send({ csr: toPem('CERTIFICATE REQUEST', flipLastByte(der)), serial, nonce: await nonce(t) })
      .expect(400);
    expect(res.body.code).toBe('csr_signature_invalid');
    expect(await rowCounts(t)).toEqual(before);
  });

  it('refuses a reused nonce and stores nothing', async () => {
    const used = await nonce(t);
    const serial = uniqueSerial();
    const csr = opensslCsr('ec', serial);
    await t.http.post('/api/v1/enroll').send({ csr: csr.csrPem, serial, nonce: used }).expect(201);
    const before = await rowCounts(t);
    const other = uniqueSerial();
    const res = await t.http
      .post('/api/v1/enroll')
      .send({ csr: opensslCsr('ec', other).csrPem, serial: other, nonce: used })
      .expect(400);
    expect(res.body.code).toBe('nonce_invalid');
    expect(await rowCounts(t)).toEqual(before);
  });

  it('refuses an expired, forged, respelled or unknown nonce and stores nothing', async () => {
    const expired = signedNonce('enroll', new Date(Date.now() - 1000));
    const forged = signedNonce(
      'enroll',
      new Date(Date.now() + 60_000),
      'another-secret-0123456789',
    );
    const live = await nonce(t);
    const [version, kind, expiry, random, mac] = live.split('.');
    const respelled = [version, kind, `0${expiry}`, random, mac].join('.');
    const serial = uniqueSerial();
    const csr = opensslCsr('ec', serial).csrPem;
    const before = await rowCounts(t);
    for (const value of [
      expired,
      forged,
      respelled,
      'never-issued',
      await nonce(t, 'source-nonce'),
    ]) {
      const res = await t.http
        .post('/api/v1/enroll')
        .send({ csr, serial, nonce: value })
        .expect(400);
      expect(res.body.code).toBe('nonce_invalid');
    }
    expect(await rowCounts(t)).toEqual(before);
  });

  it('refuses malformed input with invalid_request', async () => {
    const res = await t.http
      .post('/api/v1/enroll')
      .send({ csr: 'x', serial: ' bad serial ', nonce: 'n' })
      .expect(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('gives a blocked device a normal request flagged registered_during_block', async () => {
    const device = await enrollDevice(t);
    await sql(t, 'UPDATE devices SET blocked = true, blocked_at = now() WHERE serial = $1', [
      device.serial,
    ]);
    const res = await t.http
      .post('/api/v1/enroll')
      .send({
        csr: device.csr.csrPem,
        serial: device.serial,
        nonce: await nonce(t),
        enrollment_token: device.enrollmentToken,
      })
      .expect(201);
    expect(res.body.status).toBe('pending');
    expect((await requestOf(res.body.request_id)).registered_during_block).toBe(true);
  });
});
