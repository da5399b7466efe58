import request from 'supertest';
import { isLevelAllowed, PERMISSION_NAMES } from '../../src/app/access/permissions';
import { createCallbackKey, sendCallback } from '../support/auto-closure';
import { Auth, bearer } from '../support/catalog';
import {
  freshLogin,
  freshMember,
  freshProduct,
  keyWith,
  Product,
  seedFindings,
} from '../support/findings-seed';
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import {
  PROJECT_CALLERS,
  type ProjectCaller,
  type MatrixRoute,
  send,
} from '../support/route-matrix';

/**
 * The automatic-closure, re-verification and scanner-callback routes x every kind of caller
 * (docs/findings-service/auto-closure.md): the closure view is a findings read (keys with
 * read_findings too); the verification endpoint is for project administrators; re-verification
 * needs a user token and write_findings; callback keys are for administrators; the callback
 * itself is authenticated by its signature, not by a session or key.
 */
let t: TestApp;
let admin: Login;
let product: Product;
let finding: string;
const callers: Record<string, Auth | undefined> = {};

const CALLERS = PROJECT_CALLERS;
type Caller = ProjectCaller;

type Route = MatrixRoute<Caller>;

const ADMINS_ONLY: Record<Caller, number> = {
  anonymous: 401,
  'key: read_findings': 403,
  'key: every permission': 403,
  'user: not a member': 403,
  'user: viewer': 403,
  'user: analyst': 403,
  'user: project admin': 403,
  administrator: 200,
};

/** Project admins (user token): a non-member gets the 404 of a project it cannot see. */
const PROJECT_ADMINS: Record<Caller, number> = {
  ...ADMINS_ONLY,
  'user: not a member': 404,
  'user: project admin': 200,
};

const routes = (): Route[] => [
  {
    name: 'GET /api/v1/findings/{id}/auto-closure',
    call: (auth) => send(request(t.url).get(`/api/v1/findings/${finding}/auto-closure`), auth),
    expected: {
      anonymous: 401,
      'key: read_findings': 200,
      'key: every permission': 200,
      'user: not a member': 403,
      'user: viewer': 200,
      'user: analyst': 200,
      'user: project admin': 200,
      administrator: 200,
    },
  },
  {
    name: 'POST /api/v1/findings/{id}/reverification',
    // No endpoint is set: who gets past the access check meets the 422.
    call: (auth) => send(request(t.url).post(`/api/v1/findings/${finding}/reverification`), auth),
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: every permission': 403,
      'user: not a member': 404,
      'user: viewer': 403,
      'user: analyst': 422,
      'user: project admin': 422,
      administrator: 422,
    },
  },
  {
    name: 'GET /api/v1/findings/{id}/reverification',
    call: (auth) => send(request(t.url).get(`/api/v1/findings/${finding}/reverification`), auth),
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: every permission': 403,
      'user: not a member': 404,
      'user: viewer': 200,
      'user: analyst': 200,
      'user: project admin': 200,
      administrator: 200,
    },
  },
  {
    name: 'GET /api/v1/projects/{id}/verification-endpoint',
    call: (auth) =>
      send(
        request(t.url).get(`/api/v1/projects/${product.project_id}/verification-endpoint`),
        auth,
      ),
    expected: PROJECT_ADMINS,
  },
  {
    name: 'PUT /api/v1/projects/{id}/verification-endpoint',
    call: (auth) =>
      send(
        request(t.url)
          .put(`/api/v1/projects/${product.project_id}/verification-endpoint`)
          .send({ url: 'https://scanner.example.test/verify' }),
        auth,
      ),
    expected: PROJECT_ADMINS,
  },
  {
    name: 'GET /api/v1/admin/scanner-callback-keys',
    call: (auth) => send(request(t.url).get('/api/v1/admin/scanner-callback-keys'), auth),
    expected: ADMINS_ONLY,
  },
  {
    name: 'POST /api/v1/admin/scanner-callback-keys',
    call: (auth) =>
      send(request(t.url).post('/api/v1/admin/scanner-callback-keys').send({ name: 'm' }), auth),
    expected: { ...ADMINS_ONLY, administrator: 201 },
  },
  {
    name: 'POST /api/v1/admin/scanner-callback-keys/{id}/rotate',
    call: async (auth) => {
      const key = await createCallbackKey(t, admin);
      return send(
        request(t.url).post(`/api/v1/admin/scanner-callback-keys/${key.id}/rotate`).send({}),
        auth,
      );
    },
    expected: { ...ADMINS_ONLY, administrator: 201 },
  },
  {
    name: 'DELETE /api/v1/admin/scanner-callback-keys/{id}',
    call: async (auth) => {
      const key = await createCallbackKey(t, admin);
      return send(request(t.url).delete(`/api/v1/admin/scanner-callback-keys/${key.id}`), auth);
    },
    expected: { ...ADMINS_ONLY, administrator: 204 },
  },
];

beforeAll(async () => {
  t = await startTestApp({ FEATURE_MANUAL_REVERIFICATION: 'true' });
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  [finding] = await seedFindings(t, product, [{ status: 'new' }]);
  callers['anonymous'] = undefined;
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
});
afterAll(() => t.close());

describe('Access - automatic closure, re-verification and callback routes x caller', () => {
  it('every route answers each caller as the access table says', async () => {
    const wrong: string[] = [];
    for (const route of routes()) {
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
  });

  it('the callback takes no session or key: only its signature decides', async () => {
    const key = await createCallbackKey(t, admin);
    for (const caller of CALLERS) {
      const auth = callers[caller];
      const unsigned = await send(
        request(t.url)
          .post('/api/v1/scanner-callbacks/verify-finding')
          .send({ results: [{ finding_id: finding, result: 'absent' }] }),
        auth,
      );
      expect([caller, unsigned.status]).toEqual([caller, 401]);
    }
    expect((await sendCallback(t, key, [{ finding_id: finding, result: 'absent' }])).status).toBe(
      200,
    );
  });

  it('without FEATURE_MANUAL_REVERIFICATION the re-verification paths do not exist', async () => {
    const off = await startTestApp({}, { db: t.db });
    try {
      const offAdmin = await loginAdmin(off);
      for (const method of ['get', 'post'] as const) {
        const res = await bearer(offAdmin).apply(
          request(off.url)[method](`/api/v1/findings/${finding}/reverification`),
        );
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'not_found' });
      }
    } finally {
      await off.close();
    }
  });
});
