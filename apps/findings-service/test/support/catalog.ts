import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Login } from './sessions';
import type { TestApp } from './test-app';

export interface Auth {
  /** Sets the caller's credentials on a supertest request. */
  apply(req: request.Test): request.Test;
}

export function bearer(login: Login | { token: string }): Auth {
  return { apply: (req) => req.set('Authorization', `Bearer ${login.token}`) };
}

export function apiKey(key: string): Auth {
  return { apply: (req) => req.set('X-API-Key', key) };
}

export async function createProject(t: TestApp, auth: Auth, name = `proj-${randomUUID()}`) {
  const res = await auth.apply(request(t.url).post('/api/v1/projects').send({ name })).expect(201);
  return (res.body as { data: { id: string; name: string } }).data;
}

export async function createProduct(
  t: TestApp,
  auth: Auth,
  projectId: string,
  body: Record<string, unknown> = {},
) {
  const res = await auth
    .apply(
      request(t.url)
        .post(`/api/v1/projects/${projectId}/products`)
        .send({ name: `prod-${randomUUID()}`, ...body }),
    )
    .expect(201);
  return (res.body as { data: { id: string; project_id: string; name: string } }).data;
}

export type ProjectRole = 'admin' | 'analyst' | 'viewer';

export async function addMember(
  t: TestApp,
  auth: Auth,
  projectId: string,
  userId: string,
  role: ProjectRole,
): Promise<void> {
  await auth
    .apply(request(t.url).put(`/api/v1/projects/${projectId}/members/${userId}`).send({ role }))
    .expect(200);
}
