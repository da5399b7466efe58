import request from 'supertest';
import { DataSource } from 'typeorm';
import { UserLifecycleRepository } from '../../src/modules/users/user-lifecycle.repository';
import { freshUser, login, loginAdmin, Login } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp, TestApp } from '../support/test-app';

describe('Last administrator - /api/v1/admin/users/{id}/enabled (PUT) under concurrency', () => {
  let t: TestApp;
  let a: Login;
  let b: Login;
  const sql = <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    t.app.get(DataSource).query(text, params) as Promise<T[]>;

  beforeAll(async () => {
    t = await startTestApp();
    const root = await loginAdmin(t);
    const ua = await freshUser(t, root, { isAdmin: true });
    const ub = await freshUser(t, root, { isAdmin: true });
    a = await login(t, ua.email, ua.password);
    b = await login(t, ub.email, ub.password);
    // Leave A and B as the only active administrators.
    await sql(`UPDATE users SET is_admin = false WHERE email = $1`, [ADMIN_EMAIL]);
  });
  afterAll(() => t.close());

  /** Polls until some session waits on a row lock (the second disable), with a deadline. */
  async function untilALockIsAwaited(): Promise<void> {
    const deadline = Date.now() + 4_000;
    while (Date.now() < deadline) {
      const waiting = await sql(
        `SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'
            AND query LIKE '%FOR UPDATE%'`,
      );
      if (waiting.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the second disable never waited for the first one');
  }

  it('two administrators disabling each other at once leave one active (409 user_last_admin)', async () => {
    let locked!: () => void;
    let release!: () => void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    // A disables B: the transaction holds its locks until released.
    const first = t.app.get(UserLifecycleRepository).withLockedUser(b.userId, async (user, tx) => {
      locked();
      await released;
      return tx.setActive(user?.id ?? '', false);
    });
    await lockHeld;
    // Meanwhile B (still active when authenticated) disables A.
    const second = request(t.url)
      .put(`/api/v1/admin/users/${a.userId}/enabled`)
      .set('Authorization', `Bearer ${b.token}`)
      .send({ enabled: false })
      .then((res) => res);
    await untilALockIsAwaited();
    release();
    expect((await first).isActive).toBe(false);
    const res = await second;
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('user_last_admin');
    const admins = await sql<{ id: string }>(
      `SELECT id FROM users WHERE is_admin AND is_active ORDER BY id`,
    );
    expect(admins).toEqual([{ id: a.userId }]);
  });
});
