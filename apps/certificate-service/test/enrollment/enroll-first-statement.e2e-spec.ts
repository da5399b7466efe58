import { DataSource } from 'typeorm';
import { inProcessCsr, nonce, uniqueSerial } from '../fixtures/enroll';
import { loginAdmin } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  createEndpoint,
  deliveryRows,
  startWebhookApp,
  TEST_WEBHOOK_KEY,
} from '../webhooks/webhook-app';

/**
 * The first enrollment of a serial writes nonce, device, request and `request.created` in one
 * statement (issue 34). Two API replicas on one database: a nonce stays single-use when both
 * receive it at the same moment, a serial enrolled on both at once makes one device, and a
 * refused nonce writes nothing.
 */
describe('Enroll - first enrollment in one statement, across two replicas', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startWebhookApp();
    // The second replica writes outbox rows too (no delivery side: the first one's).
    b = await startTestApp({
      env: {
        CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '100000',
        CERTSVC_WEBHOOKS_ENABLED: 'true',
        CERTSVC_WEBHOOK_ENC_KEY: TEST_WEBHOOK_KEY,
      },
      database: a.db,
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const db = () => a.app.get(DataSource);
  const body = (serial: string, n: string, extra: Record<string, unknown> = {}) => ({
    csr: inProcessCsr(serial).csrPem,
    serial,
    nonce: n,
    agent_version: '2.4.1',
    platform: 'linux',
    hostname: `host-${serial}`,
    ...extra,
  });

  it('a nonce sent to both replicas at once enrolls exactly one new device', async () => {
    for (let round = 0; round < 4; round++) {
      const shared = await nonce(round % 2 === 0 ? a : b);
      const serials = Array.from({ length: 6 }, () => uniqueSerial('ONE'));
      const answers = await Promise.all(
        serials.map((serial, i) =>
          (i % 2 === 0 ? a : b).http.post('/api/v1/enroll').send(body(serial, shared)),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
      for (const refused of answers.filter((r) => r.status === 400)) {
        expect(refused.body.code).toBe('nonce_invalid');
      }
      const devices = (await db().query(`SELECT serial FROM devices WHERE serial = ANY($1)`, [
        serials,
      ])) as { serial: string }[];
      const winner = serials[answers.findIndex((r) => r.status === 201)];
      expect(devices.map((d) => d.serial)).toEqual([winner]);
      const [requests] = (await db().query(
        `SELECT count(*)::int AS n FROM certificate_requests r JOIN devices d ON d.id = r.device_id
          WHERE d.serial = ANY($1)`,
        [serials],
      )) as { n: number }[];
      expect(requests.n).toBe(1);
    }
  });

  it('one serial enrolled on both replicas at once: one device, the other call refused as a known device (401)', async () => {
    const serial = uniqueSerial('RACE');
    const [na, nb] = [await nonce(a), await nonce(b)];
    const answers = await Promise.all([
      a.http.post('/api/v1/enroll').send(body(serial, na)),
      b.http.post('/api/v1/enroll').send(body(serial, nb)),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 401]);
    const winner = answers.find((r) => r.status === 201)!;
    expect(winner.body.enrollment_token).toEqual(expect.any(String));
    expect(answers.find((r) => r.status === 401)!.body.code).toBe('enrollment_token_invalid');
    const rows = (await db().query(
      `SELECT r.id FROM certificate_requests r JOIN devices d ON d.id = r.device_id WHERE d.serial = $1`,
      [serial],
    )) as { id: string }[];
    expect(rows.map((r) => r.id)).toEqual([winner.body.request_id]);
    // The device's token re-enrolls it through the other replica (the known-device path).
    const again = await b.http
      .post('/api/v1/enroll')
      .send(
        body(serial, await nonce(b), { enrollment_token: winner.body.enrollment_token as string }),
      )
      .expect(201);
    expect(again.body.enrollment_token).toBeUndefined();
    const statuses = (await db().query(
      `SELECT r.status FROM certificate_requests r JOIN devices d ON d.id = r.device_id
        WHERE d.serial = $1 ORDER BY r.created_at`,
      [serial],
    )) as { status: string }[];
    expect(statuses.map((s) => s.status)).toEqual(['superseded', 'pending']);
  });

  it('writes the same device, request and request.created event as the transaction did; a refused nonce writes none', async () => {
    const admin = await loginAdmin(a);
    const watcher = await createEndpoint(a, admin, {
      url: 'http://127.0.0.1:9/hook',
      event_types: ['request.created'],
    });
    const serial = uniqueSerial('ROW');
    const sent = body(serial, await nonce(b));
    const res = await b.http.post('/api/v1/enroll').send(sent).expect(201);
    const refusedSerial = uniqueSerial('ROW');
    await a.http.post('/api/v1/enroll').send(body(refusedSerial, 'never-issued-nonce')).expect(400);

    const [device] = (await db().query(
      `SELECT id, assigned_purposes, blocked, agent_version, platform, hostname, enroll_key_hash,
              identity_key, last_seen_at, tpm_ek_cert_serial, tpm_ak_public, continuity_key,
              enrollment_token_hash, owner
         FROM devices WHERE serial = $1`,
      [serial],
    )) as Record<string, unknown>[];
    const [request] = (await db().query(
      `SELECT device_id, purpose, status, key_algorithm, subject_common_name, requester_kind,
              requested_by, user_identity, registered_during_block, agent_version, source_auth,
              attestation, app_attest, public_key_hash, length(csr_der) > 0 AS has_csr
         FROM certificate_requests WHERE id = $1`,
      [res.body.request_id],
    )) as Record<string, unknown>[];
    expect(device).toMatchObject({
      assigned_purposes: ['wifi'],
      blocked: false,
      agent_version: '2.4.1',
      platform: 'linux',
      hostname: `host-${serial}`,
      tpm_ek_cert_serial: null,
      tpm_ak_public: null,
      continuity_key: null,
      owner: null,
    });
    expect(device!['last_seen_at']).toBeInstanceOf(Date);
    expect(device!['enroll_key_hash']).toMatch(/^[0-9a-f]{64}$/);
    expect(request).toEqual({
      device_id: device!['id'],
      purpose: 'wifi',
      status: 'pending',
      key_algorithm: 'ec',
      subject_common_name: serial,
      requester_kind: 'device',
      requested_by: `device:${serial}`,
      user_identity: null,
      registered_during_block: false,
      agent_version: '2.4.1',
      source_auth: expect.any(String),
      attestation: 'none',
      app_attest: 'not_applicable',
      public_key_hash: device!['enroll_key_hash'],
      has_csr: true,
    });
    const events = await deliveryRows(a, 'endpoint_id = $1', [watcher.id]);
    expect(events.map((e) => e.event_type)).toEqual(['request.created']);
    expect(events[0]!.payload).toMatchObject({
      type: 'request.created',
      data: { request_id: res.body.request_id, device_id: device!['id'], purpose: 'wifi' },
    });
    const refused = (await db().query(`SELECT 1 FROM devices WHERE serial = $1`, [
      refusedSerial,
    ])) as unknown[];
    expect(refused).toEqual([]);
  });
});
