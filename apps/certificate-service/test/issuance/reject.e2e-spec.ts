import { randomUUID } from 'node:crypto';
import { enrollDevice, sql, startEnrollApp } from '../fixtures/enroll';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { approveRows, issuedDevice } from '../fixtures/issue';

describe('Reject - /api/v1/requests/reject (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('rejects pending requests with a reason, one row per request, audited', async () => {
    const pending = await enrollDevice(t);
    const issued = await issuedDevice(t, admin.accessToken);
    const unknown = randomUUID();
    const res = await t.http
      .post('/api/v1/requests/reject')
      .set(...bearer(admin.accessToken))
      .send({ request_ids: [pending.requestId, issued.requestId, unknown], reason: 'not ours' })
      .expect(200);
    expect(res.body).toEqual({
      results: [
        { request_id: pending.requestId, status: 'rejected' },
        { request_id: issued.requestId, status: 'error', error: 'request_not_pending' },
        { request_id: unknown, status: 'error', error: 'request_not_found' },
      ],
    });
    const [row] = await sql<{ status: string; status_reason: string; decided_by: string }>(
      t,
      `SELECT status, status_reason, decided_by FROM certificate_requests WHERE id = $1`,
      [pending.requestId],
    );
    expect(row).toEqual({ status: 'rejected', status_reason: 'not ours', decided_by: admin.email });
    const audit = await sql<{ details: unknown }>(
      t,
      `SELECT details FROM audit_log WHERE action = 'request.reject' AND target = $1`,
      [pending.requestId],
    );
    expect(audit).toEqual([{ details: { reason: 'not ours' } }]);
    const [again] = await approveRows(t, admin.accessToken, [pending.requestId]);
    expect(again.error).toBe('request_not_pending');
  });

  it('refuses invalid bodies with 400', async () => {
    await t.http
      .post('/api/v1/requests/reject')
      .set(...bearer(admin.accessToken))
      .send({ request_ids: [randomUUID()], reason: 'x'.repeat(501) })
      .expect(400);
  });
});
