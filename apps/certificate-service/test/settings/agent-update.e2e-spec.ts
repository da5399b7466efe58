import { enrollDevice, sql, startEnrollApp } from '../fixtures/enroll';
import { bearer, createUser, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

interface StuckBody {
  required_version: string | null;
  required_since: string | null;
  min_hours: number;
  items: {
    serial: string;
    agent_version: string | null;
    stuck_since: string;
    hours_stuck: number;
  }[];
  page: number;
  limit: number;
  total: number;
}

describe('Agent update - /api/v1/settings/agent-update/stuck and /platform-update (GET)', () => {
  let t: TestApp;
  let admin: TestUser;
  let viewer: TestUser;
  const serials: Record<string, string> = {};

  const stuck = async (query = '', token = admin.accessToken): Promise<StuckBody> =>
    (
      await t.http
        .get(`/api/v1/settings/agent-update/stuck${query}`)
        .set(...bearer(token))
        .expect(200)
    ).body as StuckBody;

  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
    viewer = await createUser(t, admin, ['cert-viewer']);
    // Enrolled before the floor exists (the floor refuses enrollments below it).
    for (const version of ['2.3.9', '2.4.0-beta.1', '2.4.0', '2.10.0', '2.4', '1.0+build7']) {
      serials[version] = (await enrollDevice(t, { extra: { agent_version: version } })).serial;
    }
    serials.none = (await enrollDevice(t, { extra: { agent_version: undefined } })).serial;
    serials.blocked = (await enrollDevice(t, { extra: { agent_version: '1.0.0' } })).serial;
    await sql(t, `UPDATE devices SET blocked = true, blocked_at = now() WHERE serial = $1`, [
      serials.blocked,
    ]);
  });
  afterAll(() => t.close());

  it('lists nobody and notices only the newest version while no floor is enforced', async () => {
    const body = await stuck('?min_hours=0');
    expect(body).toMatchObject({ required_version: null, items: [], total: 0, min_hours: 0 });
    const update = await t.http
      .get('/api/v1/settings/platform-update')
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(update.body).toMatchObject({
      source_auth_mode: 'off',
      required_agent_version: null,
      newest_agent_version: '2.10.0',
      devices_total: 7,
      devices_below_required: 0,
      devices_on_newest: 1,
      notice_level: 'info',
      notice: '6 devices run an agent older than 2.10.0, the newest one reported.',
    });
    expect(typeof update.body.server_version).toBe('string');
  });

  it('lists the unblocked devices below the version_floor, compared numerically, once held back min_hours', async () => {
    await t.http
      .put('/api/v1/settings/enroll-source-auth')
      .set(...bearer(admin.accessToken))
      .send({ mode: 'version_floor', min_agent_version: '2.4.0' })
      .expect(200);
    // Just set: nobody has been held back a day yet.
    expect((await stuck()).total).toBe(0);
    const now = await stuck('?min_hours=0');
    expect(now.required_version).toBe('2.4.0');
    expect(now.items.map((i) => i.agent_version).sort()).toEqual(
      ['1.0+build7', '2.3.9', '2.4.0-beta.1', null].sort(),
    );
    expect(now.items.map((i) => i.serial)).not.toContain(serials.blocked);
    expect(now.items.map((i) => i.serial)).not.toContain(serials['2.4']);

    await sql(
      t,
      `UPDATE policy_settings SET updated_at = now() - interval '30 hours'
                  WHERE key = 'enroll_source_auth'`,
    );
    // Enrolled 2 hours before the floor changed: the floor holds them back since its change.
    const hourAgo = await stuck('?min_hours=1');
    expect(hourAgo.total).toBe(0);
    await sql(t, `UPDATE devices SET created_at = now() - interval '32 hours'`);
    const day = await stuck('?limit=3');
    expect(day.total).toBe(4);
    expect(day.items).toHaveLength(3);
    expect(day.items[0].hours_stuck).toBeGreaterThanOrEqual(29);
    const page2 = await stuck('?limit=3&page=2');
    expect(page2.items).toHaveLength(1);
    expect(page2.total).toBe(4);
    const past = await stuck('?limit=3&page=9');
    expect(past).toMatchObject({ items: [], total: 4, page: 9 });
    expect((await stuck('?min_hours=48')).total).toBe(0);
  });

  it('warns in the platform update notice how many devices the floor holds back', async () => {
    const update = await t.http
      .get('/api/v1/settings/platform-update')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(update.body).toMatchObject({
      source_auth_mode: 'version_floor',
      required_agent_version: '2.4.0',
      newest_agent_version: '2.10.0',
      devices_below_required: 4,
      notice_level: 'warning',
    });
    expect(update.body.notice).toContain('4 devices report an agent older than the required 2.4.0');
  });

  it('refuses bad paging and hours with 400 in the envelope', async () => {
    for (const q of ['?min_hours=-1', '?min_hours=8761', '?min_hours=x', '?limit=0', '?page=0']) {
      const res = await t.http
        .get(`/api/v1/settings/agent-update/stuck${q}`)
        .set(...bearer(admin.accessToken))
        .expect(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', message: expect.any(String) });
    }
  });
});
