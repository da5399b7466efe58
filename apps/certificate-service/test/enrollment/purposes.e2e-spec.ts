import { enrollDevice, rowCounts, startEnrollApp } from '../fixtures/enroll';
import { bearer, createUser, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

describe('Device purposes - /api/v1/enroll/purposes and /api/v1/enroll/purpose-request (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('tells a device its purposes, honouring overrides', async () => {
    const device = await enrollDevice(t);
    const creds = { serial: device.serial, enrollment_token: device.enrollmentToken };
    expect((await t.http.post('/api/v1/enroll/purposes').send(creds).expect(200)).body).toEqual({
      serial: device.serial,
      purposes: ['wifi'],
      networks: [],
    });
    await t.http
      .put(`/api/v1/devices/${device.serial}/purpose-overrides`)
      .set(...bearer(admin.accessToken))
      .send({ overrides: { wifi: 'deny', vpn: 'allow' } })
      .expect(200);
    expect(
      (await t.http.post('/api/v1/enroll/purposes').send(creds).expect(200)).body.purposes,
    ).toEqual(['vpn']);
    expect(
      (
        await t.http
          .post('/api/v1/enroll/purposes')
          .send({ ...creds, enrollment_token: 'wet_bad' })
          .expect(401)
      ).body.code,
    ).toBe('enrollment_token_invalid');
  });

  it('queues a purpose request once; an admin approves it and the purpose is assigned', async () => {
    const device = await enrollDevice(t);
    const ask = {
      serial: device.serial,
      enrollment_token: device.enrollmentToken,
      purpose: 'ssh',
      note: 'dev laptop',
    };
    const first = await t.http.post('/api/v1/enroll/purpose-request').send(ask).expect(200);
    const again = await t.http.post('/api/v1/enroll/purpose-request').send(ask).expect(200);
    expect(first.body).toEqual({
      status: 'pending',
      request_id: expect.any(String),
      purpose: 'ssh',
    });
    expect(again.body.request_id).toBe(first.body.request_id);

    const viewer = await createUser(t, admin, ['cert-viewer']);
    const queue = await t.http
      .get('/api/v1/admin/purpose-requests')
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(queue.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: first.body.request_id,
          serial: device.serial,
          purpose: 'ssh',
          status: 'pending',
          note: 'dev laptop',
        }),
      ]),
    );

    await t.http
      .post(`/api/v1/devices/${device.serial}/purposes/ssh/decision`)
      .set(...bearer(viewer.accessToken))
      .send({ decision: 'approve' })
      .expect(403);
    const decided = await t.http
      .post(`/api/v1/devices/${device.serial}/purposes/ssh/decision`)
      .set(...bearer(admin.accessToken))
      .send({ decision: 'approve' })
      .expect(200);
    expect(decided.body).toMatchObject({ status: 'approved', decided_by: admin.email });
    const purposes = await t.http
      .post('/api/v1/enroll/purposes')
      .send({ serial: device.serial, enrollment_token: device.enrollmentToken })
      .expect(200);
    expect(purposes.body.purposes).toEqual(['wifi', 'ssh']);
    expect(
      (await t.http.post('/api/v1/enroll/purpose-request').send(ask).expect(200)).body.status,
    ).toBe('already_allowed');
    await t.http
      .post(`/api/v1/devices/${device.serial}/purposes/ssh/decision`)
      .set(...bearer(admin.accessToken))
      .send({ decision: 'deny' })
      .expect(404);
    const audit = await t.http
      .get('/api/v1/audit?action=device.purpose_request_decision')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(audit.body.items[0]).toMatchObject({
      target: device.serial,
      details: { purpose: 'ssh', decision: 'approve' },
    });
  });

  it('denies without assigning, and refuses bad input storing nothing', async () => {
    const device = await enrollDevice(t);
    await t.http
      .post('/api/v1/enroll/purpose-request')
      .send({ serial: device.serial, enrollment_token: device.enrollmentToken, purpose: 'vpn' })
      .expect(200);
    await t.http
      .post(`/api/v1/devices/${device.serial}/purposes/vpn/decision`)
      .set(...bearer(admin.accessToken))
      .send({ decision: 'deny' })
      .expect(200);
    expect(
      (
        await t.http
          .get(`/api/v1/devices/${device.serial}/purposes`)
          .set(...bearer(admin.accessToken))
          .expect(200)
      ).body.assigned,
    ).toEqual(['wifi']);
    const before = await rowCounts(t);
    await t.http
      .post('/api/v1/enroll/purpose-request')
      .send({
        serial: device.serial,
        enrollment_token: device.enrollmentToken,
        purpose: 'teleport',
      })
      .expect(400);
    await t.http
      .post('/api/v1/enroll/purpose-request')
      .send({ serial: device.serial, enrollment_token: 'wet_x', purpose: 'vpn' })
      .expect(401);
    expect(
      (
        await t.http
          .post(`/api/v1/devices/${device.serial}/purposes/teleport/decision`)
          .set(...bearer(admin.accessToken))
          .send({ decision: 'deny' })
          .expect(400)
      ).body.code,
    ).toBe('invalid_purpose');
    expect(await rowCounts(t)).toEqual(before);
  });
});
