import {
  enrollDevice,
  enrollDevices,
  sql,
  startEnrollApp,
  type EnrolledDevice,
} from '../fixtures/enroll';
import { bearer, createServiceAccount, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { firstBrokenLink } from '../../src/modules/license/license-ledger';
import { approve, approveRows } from '../fixtures/issue';

describe('License - /api/v1/license/status, /api/v1/license/decommission (GET, POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const status = async () =>
    (
      await t.http
        .get('/api/v1/license/status')
        .set(...bearer(admin.accessToken))
        .expect(200)
    ).body as Record<string, unknown>;

  it('reports exactly the free-mode fields before anything is issued', async () => {
    const body = await status();
    expect(Object.keys(body).sort()).toEqual(
      [
        'mode',
        'tier',
        'issued_to',
        'active_count',
        'max_devices',
        'high_water',
        'expires_at',
        'tamper',
        'tamper_reason',
        'deployment_instance_key',
        'purpose_seats_limited',
        'purpose_seats',
      ].sort(),
    );
    expect(body).toMatchObject({
      mode: 'free',
      tier: 'free',
      issued_to: '',
      active_count: 0,
      max_devices: 50,
      high_water: 0,
      expires_at: null,
      tamper: false,
      tamper_reason: '',
      purpose_seats_limited: false,
    });
    expect(Buffer.from(body.deployment_instance_key as string, 'base64')).toHaveLength(32);
    expect(body.purpose_seats).toEqual(
      ['wifi', 'user_mtls', 'ad_logon', 'ssh', 'k8s', 'vpn'].map((purpose) => ({
        purpose,
        bought: 0,
        used: 0,
        free: 0,
      })),
    );
  });

  describe('at the 50-device limit', () => {
    const devices: EnrolledDevice[] = [];
    beforeAll(async () => {
      // Concurrent, CSRs made in process: 52 serial openssl spawns and round trips made this
      // set-up the slowest of the suite on a busy machine.
      devices.push(...(await enrollDevices(t, 52)));
      const rows = await approveRows(
        t,
        admin.accessToken,
        devices.slice(0, 50).map((d) => d.requestId),
      );
      expect(rows.every((r) => r.status === 'issued')).toBe(true);
    });

    it('refuses the 51st device: 402 license_limit alone, a license_limit row in bulk', async () => {
      const single = await approve(t, admin.accessToken, [devices[50].requestId]).expect(402);
      expect(single.body).toMatchObject({ code: 'license_limit' });
      const rows = await approveRows(t, admin.accessToken, [
        devices[50].requestId,
        devices[51].requestId,
      ]);
      expect(rows.map((r) => r.error)).toEqual(['license_limit', 'license_limit']);
      const [request] = await sql<{ status: string }>(
        t,
        `SELECT status FROM certificate_requests WHERE id = $1`,
        [devices[50].requestId],
      );
      expect(request.status).toBe('pending');
      expect(await status()).toMatchObject({ active_count: 50, high_water: 50 });
    });

    it('never blocks a renewal of a counted device', async () => {
      const d = devices[3];
      const renewal = await enrollDevice(t, {
        serial: d.serial,
        extra: { enrollment_token: d.enrollmentToken },
      });
      const [row] = await approveRows(t, admin.accessToken, [renewal.requestId]);
      expect(row.status).toBe('issued');
      expect(await status()).toMatchObject({ active_count: 50 });
    });

    it('mixes outcomes in one bulk call (license, terminal, service-account refusals)', async () => {
      const sa = await createServiceAccount(t, admin, { allowed_purposes: ['user_mtls'] });
      const renewal = await enrollDevice(t, {
        serial: devices[4].serial,
        extra: { enrollment_token: devices[4].enrollmentToken },
      });
      const rows = await approveRows(t, sa.token, [
        devices[0].requestId,
        devices[51].requestId,
        renewal.requestId,
      ]);
      expect(rows.map((r) => r.error)).toEqual([
        'request_not_pending',
        'purpose_not_allowed',
        'purpose_not_allowed',
      ]);
      const mixed = await approveRows(t, admin.accessToken, [
        devices[0].requestId,
        devices[51].requestId,
        renewal.requestId,
      ]);
      expect(mixed.map((r) => r.error ?? r.status)).toEqual([
        'request_not_pending',
        'license_limit',
        'issued',
      ]);
    });

    it('frees a slot by decommission (cert-admin) so the next device fits', async () => {
      const [device] = await sql<{ identity_key: string }>(
        t,
        `SELECT identity_key FROM devices WHERE serial = $1`,
        [devices[7].serial],
      );
      expect(device.identity_key).toBe(`sn:${devices[7].serial}`);
      const res = await t.http
        .post('/api/v1/license/decommission')
        .set(...bearer(admin.accessToken))
        .send({ identity_key: device.identity_key })
        .expect(200);
      expect(res.body).toEqual({ identity_key: device.identity_key, active_count: 49 });
      await t.http
        .post('/api/v1/license/decommission')
        .set(...bearer(admin.accessToken))
        .send({ identity_key: device.identity_key })
        .expect(404);
      await t.http
        .post('/api/v1/license/decommission')
        .set(...bearer(admin.accessToken))
        .send({ identity_key: 'nope' })
        .expect(400);
      const [row] = await approveRows(t, admin.accessToken, [devices[50].requestId]);
      expect(row.status).toBe('issued');
      expect(await status()).toMatchObject({ active_count: 50, high_water: 50 });
    });

    it('keeps an intact SHA-256 chained ledger of counts and decommissions', async () => {
      const rows = await sql<{
        seq: string;
        identity_key: string;
        event: 'count' | 'decommission';
        at: Date;
        prev_hash: string;
        hash: string;
      }>(
        t,
        `SELECT seq, identity_key, event, at, prev_hash, hash FROM license_ledger ORDER BY seq`,
      );
      expect(rows.filter((r) => r.event === 'count')).toHaveLength(51);
      expect(rows.filter((r) => r.event === 'decommission')).toHaveLength(1);
      const chain = rows.map((r) => ({
        seq: BigInt(r.seq),
        identityKey: r.identity_key,
        event: r.event,
        at: r.at,
        prevHash: r.prev_hash,
        hash: r.hash,
      }));
      expect(firstBrokenLink(chain)).toBeUndefined();
      await expect(
        sql(t, `UPDATE license_ledger SET identity_key = 'sn:x' WHERE seq = 1`),
      ).rejects.toThrow(/append-only/);
    });
  });
});
