import { enrollDevice, sql, startEnrollApp, uniqueSerial } from '../fixtures/enroll';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { issuedDevice } from '../fixtures/issue';

describe('Check conflicts - /api/v1/requests/check-conflicts (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('reports several pending requests of one serial and a serial already holding a certificate', async () => {
    const serial = uniqueSerial();
    const issued = await issuedDevice(t, admin.accessToken, { serial });
    const token = { enrollment_token: issued.enrollmentToken };
    const a = await enrollDevice(t, { serial, extra: token });
    const b = await enrollDevice(t, { serial, extra: token });
    const clean = await enrollDevice(t);
    const check = (ids: string[]) =>
      t.http
        .post('/api/v1/requests/check-conflicts')
        .set(...bearer(admin.accessToken))
        .send({ request_ids: ids })
        .expect(200);
    // Enrollment supersedes the older pending request: only the renewal conflict remains.
    const renewal = await check([b.requestId, clean.requestId]);
    expect(renewal.body).toEqual({
      conflicts: [
        {
          serial,
          purpose: 'wifi',
          user_identity: null,
          kinds: ['active_certificate'],
          pending_request_ids: [b.requestId],
          active_certificate_serials: [issued.certificateSerial],
        },
      ],
    });
    // Two pending requests of one device and purpose (e.g. restored from before supersession).
    await sql(t, `UPDATE certificate_requests SET status = 'pending' WHERE id = $1`, [a.requestId]);
    const res = await t.http
      .post('/api/v1/requests/check-conflicts')
      .set(...bearer(admin.accessToken))
      .send({ request_ids: [a.requestId, clean.requestId] })
      .expect(200);
    expect(res.body).toEqual({
      conflicts: [
        {
          serial,
          purpose: 'wifi',
          user_identity: null,
          kinds: ['multiple_pending', 'active_certificate'],
          pending_request_ids: expect.arrayContaining([a.requestId, b.requestId]),
          active_certificate_serials: [issued.certificateSerial],
        },
      ],
    });
  });
});
