import { Client } from 'pg';
import { hashPassword } from '@platform/auth';
import type { TestIdentityProvider } from '@platform/testing';
import { UsersRepository } from '../../src/modules/users/users.repository';
import { oidcEnv, spaAuthorization, startSpaProvider } from '../support/oidc';
import { startTestApp, type TestApp } from '../support/test-app';

const FAST_SCRYPT = { N: 1 << 10, r: 8, p: 1 };

describe('First sign-in - identity provider and local login racing on an empty roles table', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startSpaProvider(
      Object.fromEntries(
        [0, 1, 2, 3].map((i) => [
          `sso-${i}`,
          { email: `sso-${i}@corp.test`, email_verified: true },
        ]),
      ),
    );
    t = await startTestApp({ withoutLocalAdmin: true, env: oidcEnv(idp) });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
  });

  it('gives cert-admin to exactly one person, whichever method signs in first', async () => {
    const locals = [0, 1, 2, 3].map((i) => ({
      email: `local-${i}@certsvc.test`,
      password: `password-${i}-long`,
    }));
    const users = t.app.get(UsersRepository);
    for (const p of locals)
      await users.create(p.email, await hashPassword(p.password, FAST_SCRYPT), []);
    // The browser part first, so that only the sign-ins themselves race.
    const codes = await Promise.all([0, 1, 2, 3].map((i) => spaAuthorization(t, idp, `sso-${i}`)));

    const answers = await Promise.all([
      ...codes.map((body) => t.http.post('/api/v1/auth/callback').send(body)),
      ...locals.map((p) => t.http.post('/api/v1/auth/local/login').send(p)),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const admins = answers.filter((a) => a.body.user.role === 'cert-admin');
    expect(admins).toHaveLength(1);

    const db = new Client({ connectionString: t.db.url });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT email, role FROM user_roles');
      expect(rows).toEqual([{ email: admins[0].body.user.email, role: 'cert-admin' }]);
    } finally {
      await db.end();
    }
  });
});

describe('First sign-in - /api/v1/auth/callback (POST) on an empty roles table', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await startSpaProvider({ first: { email: 'first@corp.test', email_verified: true } });
    t = await startTestApp({ withoutLocalAdmin: true, env: oidcEnv(idp) });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
  });

  it('makes the first person, signed in through the provider, cert-admin', async () => {
    const body = await spaAuthorization(t, idp, 'first');
    const res = await t.http.post('/api/v1/auth/callback').send(body).expect(200);
    expect(res.body.user).toEqual({
      email: 'first@corp.test',
      role: 'cert-admin',
      roles: ['cert-admin'],
    });
  });
});
