import { enrollDevice, sql, startEnrollApp, type EnrolledDevice } from '../fixtures/enroll';
import { loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { approve } from '../fixtures/issue';

describe('License limit under concurrency - /api/v1/requests/approve (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp({ env: { CERTSVC_DEFAULT_MAX_DEVICES: '5' } });
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('never issues to more devices than the limit when approvals race', async () => {
    const devices: EnrolledDevice[] = [];
    for (let i = 0; i < 12; i++) devices.push(await enrollDevice(t));
    const answers = await Promise.all([
      ...devices.slice(0, 8).map((d) => approve(t, admin.accessToken, [d.requestId])),
      approve(
        t,
        admin.accessToken,
        devices.slice(8).map((d) => d.requestId),
      ),
    ]);
    const singles = answers.slice(0, 8).map((a) => a.status);
    const bulk = (answers[8].body as { results: { status: string }[] }).results;
    const issued =
      singles.filter((s) => s === 200).length + bulk.filter((r) => r.status === 'issued').length;
    expect(issued).toBe(5);
    expect(
      singles.filter((s) => s === 402).length + bulk.filter((r) => r.status === 'error').length,
    ).toBe(7);
    const [counts] = await sql<{ slots: number; devices: number }>(
      t,
      `SELECT (SELECT count(*) FROM license_slots)::int AS slots,
              (SELECT count(DISTINCT device_id) FROM certificates)::int AS devices`,
    );
    expect(counts).toEqual({ slots: 5, devices: 5 });
  });
});
