import request from 'supertest';
import { isLevelAllowed, PERMISSION_NAMES } from '../../src/app/access/permissions';
import { Auth, bearer } from '../support/catalog';
import {
  freshLogin,
  freshMember,
  freshProduct,
  keyWith,
  Product,
  seedFindings,
} from '../support/findings-seed';
import { freshUser, loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import {
  PROJECT_CALLERS,
  type ProjectCaller,
  type MatrixRoute,
  send,
} from '../support/route-matrix';

/**
 * The routes of the analyst's first day (issue 25) x every kind of caller: the list's count,
 * groups and CSV export, comment threads, people search and membership by e-mail.
 */
let t: TestApp;
let admin: Login;
let product: Product;
let findingId: string;
const callers: Record<string, Auth | undefined> = {};

const CALLERS = PROJECT_CALLERS;
type Caller = ProjectCaller;

type Route = MatrixRoute<Caller>;

/** A comment of the administrator on the finding (editing or deleting consumes one). */
async function adminComment(): Promise<string> {
  const res = await bearer(admin)
    .apply(request(t.url).post(`/api/v1/findings/${findingId}/comments`).send({ body: 'note' }))
    .expect(201);
  return res.body.data.id as string;
}

const READERS = {
  anonymous: 401,
  'key: read_findings': 200,
  'key: every permission': 200,
  // A user with no project role holds read_findings nowhere (as GET /findings).
  'user: not a member': 403,
  'user: viewer': 200,
  'user: analyst': 200,
  'user: project admin': 200,
  administrator: 200,
} as const;

const routes: Route[] = [
  ...['/api/v1/findings/count', '/api/v1/findings/groups?by=rule'].map((path): Route => ({
    name: `GET ${path}`,
    call: (auth) => send(request(t.url).get(path), auth),
    expected: READERS,
  })),
  {
    name: 'GET /api/v1/findings/export.csv',
    call: (auth) => send(request(t.url).get('/api/v1/findings/export.csv'), auth),
    expected: { ...READERS, 'key: read_findings': 403, 'key: every permission': 403 },
  },
  {
    name: 'POST /api/v1/findings/export-links',
    call: (auth) => send(request(t.url).post('/api/v1/findings/export-links'), auth),
    expected: {
      ...READERS,
      'key: read_findings': 403,
      'key: every permission': 403,
      'user: viewer': 201,
      'user: analyst': 201,
      'user: project admin': 201,
      administrator: 201,
    },
  },
  {
    name: 'GET /api/v1/findings/{id}/comments',
    call: (auth) => send(request(t.url).get(`/api/v1/findings/${findingId}/comments`), auth),
    expected: READERS,
  },
  {
    name: 'POST /api/v1/findings/{id}/comments',
    call: (auth) =>
      send(request(t.url).post(`/api/v1/findings/${findingId}/comments`).send({ body: 'x' }), auth),
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: every permission': 403,
      'user: not a member': 404,
      'user: viewer': 403,
      'user: analyst': 201,
      'user: project admin': 201,
      administrator: 201,
    },
  },
  {
    name: "PATCH /api/v1/findings/{id}/comments/{comment_id} (the administrator's comment)",
    call: async (auth) =>
      send(
        request(t.url)
          .patch(`/api/v1/findings/${findingId}/comments/${await adminComment()}`)
          .send({ body: 'edited' }),
        auth,
      ),
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: every permission': 403,
      'user: not a member': 404,
      'user: viewer': 403,
      'user: analyst': 403,
      'user: project admin': 403,
      administrator: 200,
    },
  },
  {
    name: "DELETE /api/v1/findings/{id}/comments/{comment_id} (the administrator's comment)",
    call: async (auth) =>
      send(
        request(t.url).delete(`/api/v1/findings/${findingId}/comments/${await adminComment()}`),
        auth,
      ),
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: every permission': 403,
      'user: not a member': 404,
      'user: viewer': 403,
      'user: analyst': 403,
      'user: project admin': 204,
      administrator: 204,
    },
  },
  {
    name: 'GET /api/v1/users/search?scope=assignable',
    call: (auth) =>
      send(
        request(t.url)
          .get('/api/v1/users/search')
          .query({ project_id: product.project_id, q: 'example' }),
        auth,
      ),
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: every permission': 403,
      'user: not a member': 404,
      'user: viewer': 403,
      'user: analyst': 200,
      'user: project admin': 200,
      administrator: 200,
    },
  },
  {
    name: 'GET /api/v1/users/search?scope=directory',
    call: (auth) =>
      send(
        request(t.url)
          .get('/api/v1/users/search')
          .query({ project_id: product.project_id, q: 'example', scope: 'directory' }),
        auth,
      ),
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: every permission': 403,
      'user: not a member': 404,
      'user: viewer': 403,
      'user: analyst': 403,
      'user: project admin': 200,
      administrator: 200,
    },
  },
  {
    name: 'POST /api/v1/projects/{id}/members (by e-mail)',
    call: async (auth) => {
      const user = await freshUser(t, admin);
      return send(
        request(t.url)
          .post(`/api/v1/projects/${product.project_id}/members`)
          .send({ email: user.email, role: 'viewer' }),
        auth,
      );
    },
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: every permission': 403,
      'user: not a member': 404,
      'user: viewer': 403,
      'user: analyst': 403,
      'user: project admin': 200,
      administrator: 200,
    },
  },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  [findingId] = (await seedFindings(t, product, [{ rule_id: 'r1', file_path: 'src/a.ts' }])) as [
    string,
  ];
  callers['key: read_findings'] = await keyWith(t, admin, [
    { permission: 'read_findings', level: 'global' },
  ]);
  callers['key: every permission'] = await keyWith(
    t,
    admin,
    PERMISSION_NAMES.filter((p) => isLevelAllowed(p, 'global')).map((permission) => ({
      permission,
      level: 'global' as const,
    })),
  );
  callers['user: not a member'] = bearer(await freshLogin(t, admin));
  for (const role of ['viewer', 'analyst'] as const) {
    callers[`user: ${role}`] = bearer(await freshMember(t, admin, product.project_id, role));
  }
  callers['user: project admin'] = bearer(await freshMember(t, admin, product.project_id, 'admin'));
  callers['administrator'] = bearer(admin);
}, 180_000);
afterAll(() => t.close());

describe("Access - the analyst's first day routes x caller", () => {
  it('every route answers each caller as the access table says', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      for (const caller of CALLERS) {
        const { status, body } = await route.call(callers[caller]);
        if (status !== route.expected[caller]) {
          wrong.push(
            `${caller}: ${route.name} -> ${status} ${JSON.stringify(body).slice(0, 160)} (expected ${route.expected[caller]})`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
