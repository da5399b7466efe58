import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, TestApp } from './test-app';

export interface Login {
  token: string;
  /** `findsvc_refresh=<value>` as sent back by the client. */
  cookie: string;
  userId: string;
}

export function refreshCookieOf(res: request.Response): string | undefined {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const line = raw?.find((c) => c.startsWith('findsvc_refresh='));
  return line?.split(';')[0];
}

export async function login(t: TestApp, email: string, password: string): Promise<Login> {
  const res = await request(t.url)
    .post('/api/v1/auth/local/login')
    .send({ login: email, password })
    .expect(200);
  const body = res.body as { data: { access_token: string; user: { id: string } } };
  return {
    token: body.data.access_token,
    cookie: refreshCookieOf(res) ?? '',
    userId: body.data.user.id,
  };
}

export function loginAdmin(t: TestApp): Promise<Login> {
  return login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
}

/** A fresh local user created through the admin API; returns its credentials. */
export async function freshUser(
  t: TestApp,
  admin: Login,
  options: { isAdmin?: boolean } = {},
): Promise<{ email: string; password: string; id: string }> {
  const email = `u-${randomUUID()}@example.test`;
  const password = `pw-${randomUUID()}`;
  const res = await request(t.url)
    .post('/api/v1/admin/users')
    .set('Authorization', `Bearer ${admin.token}`)
    .send({ email, password, is_admin: options.isAdmin ?? false })
    .expect(201);
  return { email, password, id: (res.body as { data: { id: string } }).data.id };
}

/** A fresh service account; returns its id and full key. */
export async function freshServiceAccount(
  t: TestApp,
  admin: Login,
): Promise<{ id: string; key: string }> {
  const res = await request(t.url)
    .post('/api/v1/admin/service-accounts')
    .set('Authorization', `Bearer ${admin.token}`)
    .send({ name: `sa-${randomUUID().slice(0, 8)}` })
    .expect(201);
  const data = (res.body as { data: { id: string; api_key: string } }).data;
  return { id: data.id, key: data.api_key };
}

export function grant(
  t: TestApp,
  admin: Login,
  accountId: string,
  body: Record<string, unknown>,
): request.Test {
  return request(t.url)
    .post(`/api/v1/admin/service-accounts/${accountId}/permissions`)
    .set('Authorization', `Bearer ${admin.token}`)
    .send(body);
}
