import { randomBytes } from 'node:crypto';
import { waitFor } from '@platform/testing';
import { enrollDevices, sql, startEnrollApp } from '../fixtures/enroll';
import { approve, approveRows } from '../fixtures/issue';
import { Vendor } from '../fixtures/license';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

const DAY = 86_400_000;

describe('License - /api/v1/license/activate (POST), modes free|licensed|expired', () => {
  const vendor = new Vendor();
  const otherVendor = new Vendor();
  let t: TestApp;
  let admin: TestUser;
  let instanceKey: string;

  beforeAll(async () => {
    t = await startEnrollApp({
      env: {
        CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: vendor.publicKey,
        // A small default limit so the fall back of an expired license is visible.
        CERTSVC_DEFAULT_MAX_DEVICES: '2',
      },
    });
    admin = await loginAdmin(t);
    instanceKey = (await status()).deployment_instance_key as string;
  });
  afterAll(async () => {
    await t.close();
    vendor.dispose();
    otherVendor.dispose();
  });

  const status = async () =>
    (
      await t.http
        .get('/api/v1/license/status')
        .set(...bearer(admin.accessToken))
        .expect(200)
    ).body as Record<string, unknown>;

  const activate = (licenseB64: string) =>
    t.http
      .post('/api/v1/license/activate')
      .set(...bearer(admin.accessToken))
      .send({ license_b64: licenseB64 });

  const refused = async (licenseB64: string, message: RegExp) => {
    const res = await activate(licenseB64).expect(400);
    expect(res.body).toMatchObject({ code: 'license_invalid' });
    expect(String(res.body.message)).toMatch(message);
  };

  it('refuses a wrongly signed, a foreign-instance, an expired and a malformed license in free mode', async () => {
    const later = new Date(Date.now() + 365 * DAY);
    await refused(
      otherVendor.sign({ instanceKey, maxDevices: 500, expiresAt: later }),
      /signature/,
    );
    await refused(
      vendor.sign({
        instanceKey: randomBytes(32).toString('base64'),
        maxDevices: 500,
        expiresAt: later,
      }),
      /another deployment/,
    );
    await refused(
      vendor.sign({ instanceKey, maxDevices: 500, expiresAt: new Date(Date.now() - DAY) }),
      /expired/,
    );
    await refused(Buffer.from('{"format":"certsvc-license/v1"}').toString('base64'), /not a/);
    expect(await status()).toMatchObject({
      mode: 'free',
      tier: 'free',
      issued_to: '',
      max_devices: 2,
      expires_at: null,
    });
  });

  describe('with an activated license', () => {
    const expiresAt = new Date(Date.now() + 365 * DAY);
    beforeAll(async () => {
      const res = await activate(
        vendor.sign({
          instanceKey,
          issuedTo: 'Example Ltd',
          maxDevices: 3,
          expiresAt,
          seats: { wifi: 2, ssh: 1 },
          licenseId: 'lic-one',
        }),
      ).expect(200);
      expect(res.body).toMatchObject({ mode: 'licensed', max_devices: 3 });
    });

    it('reports the license in every status field, one seat row per purpose', async () => {
      const body = await status();
      expect(body).toMatchObject({
        mode: 'licensed',
        tier: 'paid',
        issued_to: 'Example Ltd',
        max_devices: 3,
        expires_at: expiresAt.toISOString(),
        tamper: false,
        tamper_reason: '',
        deployment_instance_key: instanceKey,
        purpose_seats_limited: true,
      });
      expect(body.purpose_seats).toEqual([
        { purpose: 'wifi', bought: 2, used: 0, free: 2 },
        { purpose: 'user_mtls', bought: 0, used: 0, free: 0 },
        { purpose: 'ad_logon', bought: 0, used: 0, free: 0 },
        { purpose: 'ssh', bought: 1, used: 0, free: 1 },
        { purpose: 'k8s', bought: 0, used: 0, free: 0 },
        { purpose: 'vpn', bought: 0, used: 0, free: 0 },
      ]);
      const audit = await sql<{ target: string }>(
        t,
        `SELECT target FROM audit_log WHERE action = 'license.activate'`,
      );
      expect(audit).toEqual([{ target: 'lic-one' }]);
    });

    it('keeps the previous license when a later activation is refused', async () => {
      await refused(
        otherVendor.sign({ instanceKey, issuedTo: 'Forger', maxDevices: 9999 }),
        /signature/,
      );
      expect(await status()).toMatchObject({
        mode: 'licensed',
        issued_to: 'Example Ltd',
        max_devices: 3,
      });
    });

    it('admits devices up to the licensed limit, then falls back softly to the default when it expires', async () => {
      const devices = await enrollDevices(t, 5);
      const rows = await approveRows(
        t,
        admin.accessToken,
        devices.slice(0, 4).map((d) => d.requestId),
      );
      expect(rows.map((r) => (r.status === 'error' ? r.error : r.status))).toEqual([
        'issued',
        'issued',
        'issued',
        'license_limit',
      ]);
      // A second license that expires in a moment replaces the first.
      const shortExpiry = new Date(Date.now() + 5_000);
      await activate(
        vendor.sign({ instanceKey, issuedTo: 'Short Ltd', maxDevices: 4, expiresAt: shortExpiry }),
      ).expect(200);
      const [fourth] = await approveRows(t, admin.accessToken, [devices[3].requestId]);
      expect(fourth.status).toBe('issued');
      const expired = await waitFor(
        async () => {
          const s = await status();
          if (s.mode !== 'expired') throw new Error(`mode ${String(s.mode)}`);
          return s;
        },
        { what: 'the license to expire', timeoutMs: 20_000 },
      );
      expect(expired).toMatchObject({
        mode: 'expired',
        tier: 'free',
        issued_to: 'Short Ltd',
        max_devices: 2,
        active_count: 4,
        expires_at: shortExpiry.toISOString(),
        purpose_seats_limited: false,
      });
      // Issued certificates keep working; new devices are limited to the default.
      const fifth = await approve(t, admin.accessToken, [devices[4].requestId]).expect(402);
      expect(fifth.body).toMatchObject({ code: 'license_limit' });
    });

    it('ignores a stored license edited in the database (free mode applies)', async () => {
      const forged = otherVendor.sign({ instanceKey, issuedTo: 'Edited', maxDevices: 9999 });
      await sql(t, `UPDATE license_state SET license_b64 = $1 WHERE id = 1`, [forged]);
      expect(await status()).toMatchObject({ mode: 'free', issued_to: '', max_devices: 2 });
    });
  });
});
