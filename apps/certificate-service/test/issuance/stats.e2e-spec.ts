import { enrollDevice, startEnrollApp } from '../fixtures/enroll';
import { bearer, createUser, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { approveRows } from '../fixtures/issue';

describe('Stats - /api/v1/admin/stats (GET)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('counts devices, requests by status, certificates and licence usage', async () => {
    const a = await enrollDevice(t);
    const b = await enrollDevice(t);
    await enrollDevice(t);
    const [issued] = await approveRows(t, admin.accessToken, [a.requestId, b.requestId]);
    await t.http
      .post(`/api/v1/certificates/${issued.serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({})
      .expect(200);
    const viewer = await createUser(t, admin, ['cert-viewer']);
    const res = await t.http
      .get('/api/v1/admin/stats')
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(res.body).toEqual({
      devices: { total: 3, blocked: 0 },
      requests: {
        pending: 1,
        approved: 0,
        ca_pending: 0,
        issued: 2,
        rejected: 0,
        failed: 0,
        superseded: 0,
        cancelled: 0,
      },
      certificates: {
        active: 1,
        revoked: 1,
        expiring_soon: 0,
        expired: 0,
        expiring_window_days: 30,
      },
      license: { active_count: 2, max_devices: 50 },
    });
  });
});
