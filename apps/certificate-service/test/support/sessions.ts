import request from 'supertest';
import { randomBytes } from 'node:crypto';
import type { HumanRole } from '../../src/app/access/roles';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type TestApp } from './test-app';

export interface TestUser {
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

export async function login(t: TestApp, email: string, password: string): Promise<TestUser> {
  const res = await request(t.app.getHttpServer())
    .post('/api/v1/auth/local/login')
    .send({ email, password })
    .expect(200);
  const body = res.body as { access_token: string; refresh_token: string };
  return { email, password, accessToken: body.access_token, refreshToken: body.refresh_token };
}

export function loginAdmin(t: TestApp): Promise<TestUser> {
  return login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@certsvc.test`;
}

/** A fresh local user with `roles`, created by the admin through the API, signed in. */
export async function createUser(
  t: TestApp,
  admin: TestUser,
  roles: HumanRole[],
  prefix?: string,
): Promise<TestUser> {
  const email = uniqueEmail(prefix);
  const password = `pw-${randomBytes(8).toString('hex')}`;
  await request(t.app.getHttpServer())
    .post('/api/v1/users/local')
    .set('authorization', `Bearer ${admin.accessToken}`)
    .send({ email, password, roles })
    .expect(201);
  return login(t, email, password);
}

/** A fresh service account; returns its `wca_*` token and id. */
export async function createServiceAccount(
  t: TestApp,
  admin: TestUser,
  body: Record<string, unknown> = {},
): Promise<{ id: string; token: string }> {
  const res = await request(t.app.getHttpServer())
    .post('/api/v1/service-accounts')
    .set('authorization', `Bearer ${admin.accessToken}`)
    .send({ name: `sa-${randomBytes(3).toString('hex')}`, ...body })
    .expect(201);
  const created = res.body as { id: string; token: string };
  return { id: created.id, token: created.token };
}

export function bearer(token: string): [string, string] {
  return ['authorization', `Bearer ${token}`];
}
