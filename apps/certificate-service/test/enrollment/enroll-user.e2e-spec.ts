import { enrollDevice, rowCounts, sql, startEnrollApp } from '../fixtures/enroll';
import { opensslCsr } from '../fixtures/openssl';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

describe('Enroll user - /api/v1/enroll/user (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const assign = (serial: string, purposes: string[]) =>
    t.http
      .put(`/api/v1/devices/${serial}/purposes`)
      .set(...bearer(admin.accessToken))
      .send({ purposes })
      .expect(200);

  it('creates an ad_logon request with UPN and SID for an assigned purpose', async () => {
    const device = await enrollDevice(t);
    await assign(device.serial, ['wifi', 'ad_logon']);
    const res = await t.http
      .post('/api/v1/enroll/user')
      .send({
        serial: device.serial,
        enrollment_token: device.enrollmentToken,
        csr: opensslCsr('rsa', 'alice').csrPem,
        purpose: 'ad_logon',
        user: 'CORP\\alice',
        upn: 'alice@corp.example.com',
        sid: 'S-1-5-21-1004336348-1177238915-682003330-1105',
      })
      .expect(201);
    expect(res.body).toMatchObject({
      status: 'pending',
      purpose: 'ad_logon',
      agent_secret: expect.stringMatching(/^was_/),
    });
    const [row] = await sql(
      t,
      'SELECT purpose, status, upn, sid, user_identity, requester_kind FROM certificate_requests WHERE id = $1',
      [res.body.request_id],
    );
    expect(row).toEqual({
      purpose: 'ad_logon',
      status: 'pending',
      upn: 'alice@corp.example.com',
      sid: 'S-1-5-21-1004336348-1177238915-682003330-1105',
      user_identity: 'CORP\\alice',
      requester_kind: 'user',
    });
    expect(
      t.logs
        .accessLines()
        .some((l) => l.route === '/api/v1/enroll/user' && l.serial === device.serial),
    ).toBe(true);
  });

  it('allows user_mtls through an allow override, refuses a purpose that is not assigned', async () => {
    const device = await enrollDevice(t);
    const body = {
      serial: device.serial,
      enrollment_token: device.enrollmentToken,
      csr: opensslCsr('ec', 'bob').csrPem,
      purpose: 'user_mtls',
      user: 'bob@example.com',
    };
    const before = await rowCounts(t);
    expect((await t.http.post('/api/v1/enroll/user').send(body).expect(403)).body.code).toBe(
      'purpose_not_assigned',
    );
    expect(await rowCounts(t)).toEqual(before);
    await t.http
      .put(`/api/v1/devices/${device.serial}/purpose-overrides`)
      .set(...bearer(admin.accessToken))
      .send({ overrides: { user_mtls: 'allow' } })
      .expect(200);
    await t.http.post('/api/v1/enroll/user').send(body).expect(201);
  });

  it('refuses a wrong enrollment token or unknown serial alike and stores nothing', async () => {
    const device = await enrollDevice(t);
    await assign(device.serial, ['wifi', 'user_mtls']);
    const csr = opensslCsr('ec', 'carol').csrPem;
    const before = await rowCounts(t);
    for (const [serial, token] of [
      [device.serial, 'wet_nope'],
      ['UNKNOWN-SERIAL-1', device.enrollmentToken],
    ]) {
      const res = await t.http
        .post('/api/v1/enroll/user')
        .send({ serial, enrollment_token: token, csr, purpose: 'user_mtls', user: 'carol' })
        .expect(401);
      expect(res.body.code).toBe('enrollment_token_invalid');
    }
    expect(await rowCounts(t)).toEqual(before);
  });

  it('requires a UPN for ad_logon and refuses a garbage CSR, storing nothing', async () => {
    const device = await enrollDevice(t);
    await assign(device.serial, ['ad_logon']);
    const before = await rowCounts(t);
    const base = {
      serial: device.serial,
      enrollment_token: device.enrollmentToken,
      purpose: 'ad_logon',
      user: 'dave',
    };
    expect(
      (
        await t.http
          .post('/api/v1/enroll/user')
          .send({ ...base, csr: opensslCsr('ec', 'dave').csrPem })
          .expect(400)
      ).body.code,
    ).toBe('invalid_request');
    expect(
      (
        await t.http
          .post('/api/v1/enroll/user')
          .send({ ...base, upn: 'dave@corp', csr: 'garbage' })
          .expect(400)
      ).body.code,
    ).toBe('csr_invalid');
    expect(await rowCounts(t)).toEqual(before);
  });
});
