import { enrollDevices, startEnrollApp, type EnrolledDevice } from '../fixtures/enroll';
import { Vendor } from '../fixtures/license';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

describe('License - assignments racing for the last purpose seat serialize', () => {
  const vendor = new Vendor();
  let t: TestApp;
  let admin: TestUser;
  let devices: EnrolledDevice[];
  beforeAll(async () => {
    t = await startEnrollApp({ env: { CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: vendor.publicKey } });
    admin = await loginAdmin(t);
    devices = await enrollDevices(t, 6);
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
        license_b64: vendor.sign({ instanceKey, maxDevices: 10, seats: { wifi: 6, ssh: 1 } }),
      })
      .expect(200);
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
  const sshUsed = async () =>
    (
      (
        await t.http
          .get('/api/v1/license/status')
          .set(...bearer(admin.accessToken))
          .expect(200)
      ).body.purpose_seats as { purpose: string; used: number }[]
    ).find((s) => s.purpose === 'ssh')?.used;

  it('PUT /devices/{serial}/purposes: of concurrent assignments of the last seat exactly one wins', async () => {
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(devices.map((d) => assign(d.serial, ['wifi', 'ssh'])));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, 402, 402, 402, 402, 402]);
      expect(await sshUsed()).toBe(1);
      const winner = devices[answers.findIndex((a) => a.status === 200)];
      await assign(winner.serial, ['wifi']).expect(200);
      expect(await sshUsed()).toBe(0);
    }
  });

  it('device purpose request decisions: of concurrent approvals of the last seat exactly one wins', async () => {
    for (const d of devices) {
      await t.http
        .post('/api/v1/enroll/purpose-request')
        .send({ serial: d.serial, enrollment_token: d.enrollmentToken, purpose: 'ssh' })
        .expect(200);
    }
    const answers = await Promise.all(
      devices.map((d) =>
        t.http
          .post(`/api/v1/devices/${d.serial}/purposes/ssh/decision`)
          .set(...bearer(admin.accessToken))
          .send({ decision: 'approve' }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 402, 402, 402, 402, 402]);
    expect(await sshUsed()).toBe(1);
  });
});
