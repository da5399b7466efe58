import { enrollDevice, sql, startEnrollApp } from '../fixtures/enroll';
import {
  bearer,
  createServiceAccount,
  createUser,
  loginAdmin,
  type TestUser,
} from '../support/sessions';
import type { TestApp } from '../support/test-app';

describe('List requests - /api/v1/requests and /api/v1/requests.csv (GET)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('filters by status, purpose, serial and time, with paging', async () => {
    const a = await enrollDevice(t, { kind: 'rsa' });
    const b = await enrollDevice(t);
    await sql(t, `UPDATE certificate_requests SET status = 'rejected' WHERE id = $1`, [
      b.requestId,
    ]);
    const viewer = await createUser(t, admin, ['cert-viewer']);
    const mine = await t.http
      .get(`/api/v1/requests?serial=${a.serial}`)
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(mine.body).toMatchObject({ total: 1, page: 1, limit: 50 });
    expect(mine.body.items[0]).toMatchObject({
      id: a.requestId,
      serial: a.serial,
      purpose: 'wifi',
      status: 'pending',
      key_algorithm: 'rsa',
      registered_during_block: false,
    });
    expect(mine.body.items[0]).not.toHaveProperty('agent_secret_hash');
    const rejected = await t.http
      .get('/api/v1/requests?status=rejected')
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(rejected.body.items.map((r: { id: string }) => r.id)).toEqual([b.requestId]);
    expect(
      (
        await t.http
          .get('/api/v1/requests?purpose=ssh')
          .set(...bearer(viewer.accessToken))
          .expect(200)
      ).body.total,
    ).toBe(0);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(
      (
        await t.http
          .get(`/api/v1/requests?since=${future}`)
          .set(...bearer(viewer.accessToken))
          .expect(200)
      ).body.total,
    ).toBe(0);
    const paged = await t.http
      .get('/api/v1/requests?limit=1&page=2')
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(paged.body).toMatchObject({ total: 2, page: 2, limit: 1 });
    await t.http
      .get('/api/v1/requests?status=bogus')
      .set(...bearer(viewer.accessToken))
      .expect(400);
  });

  it('is readable by a service account and exports CSV', async () => {
    const d = await enrollDevice(t);
    const sa = await createServiceAccount(t, admin);
    await t.http
      .get('/api/v1/requests')
      .set(...bearer(sa.token))
      .expect(200);
    const csv = await t.http
      .get(`/api/v1/requests.csv?serial=${d.serial}`)
      .set(...bearer(sa.token))
      .expect(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,serial,purpose,status,requested_by,user_identity,registered_during_block,created_at,decided_at,decided_by',
    );
    expect(lines[1]).toContain(d.requestId);
  });
});
