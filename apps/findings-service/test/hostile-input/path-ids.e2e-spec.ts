import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import { uuidRoutes } from '../support/uuid-routes';

/** Values that are not a UUID in the canonical 8-4-4-4-12 hex form. */
const NOT_UUIDS = [
  'word',
  'not-a-uuid',
  '00000000-0000-4000-8000-00000000000g',
  '00000000000040008000000000000000',
  '{00000000-0000-4000-8000-000000000000}',
];

function call(t: TestApp, method: string, path: string): request.Test {
  const agent = request(t.url);
  switch (method) {
    case 'GET':
      return agent.get(path);
    case 'POST':
      return agent.post(path).send({});
    case 'PUT':
      return agent.put(path).send({});
    case 'PATCH':
      return agent.patch(path).send({});
    case 'DELETE':
      return agent.delete(path);
    default:
      throw new Error(`unexpected method ${method}`);
  }
}

describe('Path ids - every route with a UUID path parameter', () => {
  let t: TestApp;
  let admin: Login;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('answers 404 not_found (like an unknown route) when an id is not a UUID', async () => {
    const routes = uuidRoutes(t.app).filter((r) => !r.path.includes('test-probe'));
    expect(routes.length).toBeGreaterThanOrEqual(15);
    const wrong: string[] = [];
    for (const route of routes) {
      for (const target of route.uuidParams) {
        for (const value of NOT_UUIDS) {
          const path = route.path.replace(/:(\w+)/g, (_m, name: string) =>
            encodeURIComponent(name === target ? value : randomUUID()),
          );
          const res = await call(t, route.method, path)
            .set('Authorization', `Bearer ${admin.token}`)
            .set('Accept-Language', 'en');
          if (res.status !== 404 || res.body.code !== 'not_found' || res.body.error !== 'not found')
            wrong.push(`${route.method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers /api/v1/findings/<word> like an unknown path, even with an invalid body', async () => {
    const unknown = await request(t.url)
      .get('/api/v1/no-such-thing')
      .set('Authorization', `Bearer ${admin.token}`)
      .set('Accept-Language', 'ru')
      .expect(404);
    const word = await request(t.url)
      .get('/api/v1/findings/export')
      .set('Authorization', `Bearer ${admin.token}`)
      .set('Accept-Language', 'ru')
      .expect(404);
    expect(word.body).toEqual(unknown.body);
    const patched = await request(t.url)
      .patch('/api/v1/findings/export')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ status: 12 })
      .expect(404);
    expect(patched.body.code).toBe('not_found');
  });

  it('accepts upper-case UUIDs and still names the missing object', async () => {
    const res = await request(t.url)
      .get(`/api/v1/findings/${randomUUID().toUpperCase()}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(404);
    expect(res.body.code).toBe('finding_not_found');
  });

  it('authenticates before it looks at the id', async () => {
    const res = await request(t.url).get('/api/v1/findings/word').expect(401);
    expect(res.body.code).toBe('authentication_required');
  });
});
