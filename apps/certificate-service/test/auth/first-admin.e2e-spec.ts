import { Client } from 'pg';
import { hashPassword } from '@platform/auth';
import { UsersRepository } from '../../src/modules/users/users.repository';
import { startTestApp, type TestApp } from '../support/test-app';

const FAST_SCRYPT = { N: 1 << 10, r: 8, p: 1 };

describe('First sign-in - /api/v1/auth/local/login (POST) on an empty roles table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ withoutLocalAdmin: true });
  });
  afterAll(() => t.close());

  it('gives cert-admin to exactly one of several concurrent first sign-ins', async () => {
    const users = t.app.get(UsersRepository);
    const people = Array.from({ length: 8 }, (_, i) => ({
      email: `first-${i}@certsvc.test`,
      password: `password-${i}-long`,
    }));
    for (const p of people)
      await users.create(p.email, await hashPassword(p.password, FAST_SCRYPT), []);

    const answers = await Promise.all(
      people.map((p) => t.http.post('/api/v1/auth/local/login').send(p)),
    );
    expect(answers.map((a) => a.status)).toEqual(people.map(() => 200));
    const admins = answers.filter((a) => a.body.user.role === 'cert-admin');
    expect(admins).toHaveLength(1);

    const db = new Client({ connectionString: t.db.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ email: string; role: string }>(
        'SELECT email, role FROM user_roles',
      );
      expect(rows).toEqual([{ email: admins[0].body.user.email, role: 'cert-admin' }]);
    } finally {
      await db.end();
    }

    const later = await t.http.post('/api/v1/auth/local/login').send(people[0]).expect(200);
    const again = people.find((p) => p.email !== admins[0].body.user.email);
    const laterOther = await t.http.post('/api/v1/auth/local/login').send(again).expect(200);
    expect([later.body.user.role, laterOther.body.user.role]).toContain(null);
  });
});

describe('First admin grant - UsersRepository.grantAdminIfNoRoles under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ withoutLocalAdmin: true });
  });
  afterAll(() => t.close());

  it('grants exactly once when many grants start at the same moment', async () => {
    const users = t.app.get(UsersRepository);
    const emails = Array.from({ length: 10 }, (_, i) => `race-${i}@certsvc.test`);
    for (const email of emails) await users.create(email, null, []);
    const granted = await Promise.all(emails.map((email) => users.grantAdminIfNoRoles(email)));
    expect(granted.filter(Boolean)).toHaveLength(1);
    const admins = (await users.list()).filter((u) => u.roles.includes('cert-admin'));
    expect(admins).toHaveLength(1);
  });
});
