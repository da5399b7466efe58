import { enrollDevices, startEnrollApp, type EnrolledDevice } from '../fixtures/enroll';
import { approve, approveRows, reenroll } from '../fixtures/issue';
import { Vendor } from '../fixtures/license';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

describe('License - seats per purpose at assignment (PUT /api/v1/devices/{serial}/purposes)', () => {
  const vendor = new Vendor();
  let t: TestApp;
  let admin: TestUser;
  let serials: string[];
  let devices: EnrolledDevice[];
  beforeAll(async () => {
    t = await startEnrollApp({ env: { CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: vendor.publicKey } });
    admin = await loginAdmin(t);
    devices = await enrollDevices(t, 4);
    serials = devices.map((d) => d.serial);
  });
  afterAll(async () => {
    await t.close();
    vendor.dispose();
  });

  const assign = (serial: string, purposes: string[]) =>
    t.http
      .put(`/api/v1/devices/${serial}/purposes`)
      .set(...bearer(admin.accessToken))
      .send({ purposes });
  const seats = async () =>
    (
      await t.http
        .get('/api/v1/license/status')
        .set(...bearer(admin.accessToken))
        .expect(200)
    ).body.purpose_seats as { purpose: string; bought: number; used: number; free: number }[];

  it('is silent while the license carries no seats', async () => {
    await assign(serials[1], ['wifi', 'ssh', 'vpn']).expect(200);
    await assign(serials[1], ['wifi']).expect(200);
  });

  it('refuses a purpose without free seats (402 license_purpose_limit), never re-checks a held one', async () => {
    const instanceKey = (
      await t.http
        .get('/api/v1/license/status')
        .set(...bearer(admin.accessToken))
        .expect(200)
    ).body.deployment_instance_key as string;
    await t.http
      .post('/api/v1/license/activate')
      .set(...bearer(admin.accessToken))
      .send({
        license_b64: vendor.sign({ instanceKey, maxDevices: 10, seats: { wifi: 2, ssh: 1 } }),
      })
      .expect(200);
    // The enrolled devices hold a wifi seat (assigned at enrollment): wifi is over-full.
    expect((await seats()).find((s) => s.purpose === 'wifi')).toEqual({
      purpose: 'wifi',
      bought: 2,
      used: 4,
      free: 0,
    });
    await assign(serials[0], ['wifi', 'ssh']).expect(200);
    const refused = await assign(serials[1], ['wifi', 'ssh']).expect(402);
    expect(refused.body).toMatchObject({ code: 'license_purpose_limit' });
    expect(String(refused.body.message)).toMatch(/ssh/);
    // An unbought purpose has no seats.
    const unbought = await assign(serials[1], ['wifi', 'vpn']).expect(402);
    expect(unbought.body).toMatchObject({ code: 'license_purpose_limit' });
    // Re-saving purposes the device holds passes even with no seat free.
    await assign(serials[0], ['wifi', 'ssh']).expect(200);
    await assign(serials[1], ['wifi']).expect(200);
    const ssh = (await seats()).find((s) => s.purpose === 'ssh');
    expect(ssh).toEqual({ purpose: 'ssh', bought: 1, used: 1, free: 0 });
    // Dropping a purpose frees its seat for another device.
    await assign(serials[0], ['wifi']).expect(200);
    await assign(serials[1], ['wifi', 'ssh']).expect(200);
  });

  it('checks seats when approving a purpose the device requested', async () => {
    await t.http
      .post('/api/v1/enroll/purpose-request')
      .send({
        serial: devices[2].serial,
        enrollment_token: devices[2].enrollmentToken,
        purpose: 'ssh',
      })
      .expect(200);
    const decide = () =>
      t.http
        .post(`/api/v1/devices/${devices[2].serial}/purposes/ssh/decision`)
        .set(...bearer(admin.accessToken))
        .send({ decision: 'approve' });
    const refused = await decide().expect(402);
    expect(refused.body).toMatchObject({ code: 'license_purpose_limit' });
    await assign(serials[1], ['wifi']).expect(200);
    await decide().expect(200);
    const purposes = await t.http
      .get(`/api/v1/devices/${devices[2].serial}/purposes`)
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(JSON.stringify(purposes.body)).toContain('ssh');
  });

  describe('at approval (wifi: 2 seats, taken by issued certificates)', () => {
    const step = (n: number) =>
      t.http
        .put('/api/v1/license/seat-enforcement')
        .set(...bearer(admin.accessToken))
        .send({ step: n })
        .expect(200);
    const exceeded = (requestId: string) =>
      t.logs
        .lines()
        .some(
          (l) =>
            String(l.msg).startsWith('purpose seats exceeded at approval') &&
            l.request_id === requestId,
        );

    it('step 3 refuses over the seats (bulk row and single 402), renewals take nothing', async () => {
      await t.http
        .get('/api/v1/license/seat-enforcement')
        .set(...bearer(admin.accessToken))
        .expect(200, { step: 1 });
      await step(3);
      const rows = await approveRows(
        t,
        admin.accessToken,
        devices.slice(0, 3).map((d) => d.requestId),
      );
      expect(rows.map((r) => (r.status === 'error' ? r.error : r.status))).toEqual([
        'issued',
        'issued',
        'license_purpose_limit',
      ]);
      const single = await approve(t, admin.accessToken, [devices[2].requestId]).expect(402);
      expect(single.body).toMatchObject({ code: 'license_purpose_limit' });
      const renewal = await reenroll(t, devices[0]);
      const [renewed] = await approveRows(t, admin.accessToken, [renewal.requestId]);
      expect(renewed.status).toBe('issued');
    });

    it('step 2 logs and issues; step 1 only counts', async () => {
      await step(2);
      const [second] = await approveRows(t, admin.accessToken, [devices[2].requestId]);
      expect(second.status).toBe('issued');
      expect(exceeded(devices[2].requestId)).toBe(true);
      await step(1);
      const [first] = await approveRows(t, admin.accessToken, [devices[3].requestId]);
      expect(first.status).toBe('issued');
      expect(exceeded(devices[3].requestId)).toBe(false);
      const wifi = (await seats()).find((s) => s.purpose === 'wifi');
      expect(wifi).toMatchObject({ bought: 2, used: 4, free: 0 });
    });

    it('accepts only steps 1, 2 and 3', async () => {
      await t.http
        .put('/api/v1/license/seat-enforcement')
        .set(...bearer(admin.accessToken))
        .send({ step: 4 })
        .expect(400);
    });
  });
});
