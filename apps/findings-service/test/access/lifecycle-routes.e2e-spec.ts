import request from 'supertest';
import { DataSource } from 'typeorm';
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
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import { type MatrixRoute, send } from '../support/route-matrix';

/**
 * The lifecycle and deadline routes x every kind of caller: who gets past the access check
 * (spec "Authentication": SLA violations with read_findings and dashboards with read_metrics
 * are reachable by key; the bulk change and the manual resolution need a user token).
 */
let t: TestApp;
let admin: Login;
let product: Product;
const callers: Record<string, Auth | undefined> = {};

const CALLERS = [
  'anonymous',
  'key: read_findings',
  'key: read_metrics',
  'key: every permission',
  'user: not a member',
  'user: viewer',
  'user: analyst',
  'user: project admin',
  'administrator',
] as const;
type Caller = (typeof CALLERS)[number];

type Route = MatrixRoute<Caller>;

const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;

/** An open violation of a fresh finding of the product (resolving consumes one). */
async function freshViolation(): Promise<string> {
  const [findingId] = await seedFindings(t, product, [{ status: 'in_progress' }]);
  const [row] = await sql(
    `INSERT INTO sla_violations (finding_id, project_id, product_id, severity, kind, due_at, opened_at)
     SELECT id, project_id, product_id, severity, 'breached', now(), now() FROM findings
      WHERE id = $1 RETURNING id`,
    [findingId],
  );
  return String(row?.['id']);
}

const ALL_USERS = { 'user: project admin': 200, administrator: 200 } as const;

const routes: Route[] = [
  {
    name: 'POST /api/v1/findings/bulk-status',
    call: async (auth) => {
      const [id] = await seedFindings(t, product, [{ status: 'new' }]);
      return send(
        request(t.url)
          .post('/api/v1/findings/bulk-status')
          .send({ finding_ids: [id], status: 'confirmed' }),
        auth,
      );
    },
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: read_metrics': 403,
      'key: every permission': 403,
      // Users reach it; the selection holds only what they may write (nothing for these two).
      'user: not a member': 200,
      'user: viewer': 200,
      'user: analyst': 200,
      ...ALL_USERS,
    },
  },
  {
    name: 'GET /api/v1/sla/violations',
    call: (auth) => send(request(t.url).get('/api/v1/sla/violations'), auth),
    expected: {
      anonymous: 401,
      'key: read_findings': 200,
      'key: read_metrics': 403,
      'key: every permission': 200,
      // A user with no project role holds read_findings nowhere (as GET /findings).
      'user: not a member': 403,
      'user: viewer': 200,
      'user: analyst': 200,
      ...ALL_USERS,
    },
  },
  {
    name: 'POST /api/v1/sla/violations/{id}/resolve',
    call: async (auth) =>
      send(request(t.url).post(`/api/v1/sla/violations/${await freshViolation()}/resolve`), auth),
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: read_metrics': 403,
      'key: every permission': 403,
      'user: not a member': 403,
      'user: viewer': 403,
      'user: analyst': 200,
      ...ALL_USERS,
    },
  },
  // read_metrics is granted globally only: keys with it and global administrators.
  ...[
    '/api/v1/dashboard/sla-compliance',
    '/api/v1/dashboard/sla-trend',
    '/api/v1/grafana/projects/stats',
    '/api/v1/grafana/products/stats',
    '/api/v1/grafana/sla/metrics',
  ].map((path): Route => ({
    name: `GET ${path}`,
    call: (auth) => send(request(t.url).get(path), auth),
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: read_metrics': 200,
      'key: every permission': 200,
      'user: not a member': 403,
      'user: viewer': 403,
      'user: analyst': 403,
      'user: project admin': 403,
      administrator: 200,
    },
  })),
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  callers['anonymous'] = undefined;
  callers['key: read_findings'] = await keyWith(t, admin, [
    { permission: 'read_findings', level: 'global' },
  ]);
  callers['key: read_metrics'] = await keyWith(t, admin, [
    { permission: 'read_metrics', level: 'global' },
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

describe('Access - lifecycle, deadline and dashboard routes x caller', () => {
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
  });

  it('a refused caller changes nothing: the bulk change and the resolution by a viewer or key', async () => {
    const [id] = await seedFindings(t, product, [{ status: 'new' }]);
    for (const caller of ['user: viewer', 'user: not a member'] as const) {
      const res = await send(
        request(t.url)
          .post('/api/v1/findings/bulk-status')
          .send({ finding_ids: [id], status: 'fixed' }),
        callers[caller],
      );
      expect(res.body).toMatchObject({ data: { matched: 0, changed: 0 } });
    }
    const violation = await freshViolation();
    for (const caller of ['user: viewer', 'key: every permission'] as const) {
      await send(
        request(t.url).post(`/api/v1/sla/violations/${violation}/resolve`),
        callers[caller],
      );
    }
    expect((await sql(`SELECT status FROM findings WHERE id = $1`, [id]))[0]).toEqual({
      status: 'new',
    });
    expect(
      (await sql(`SELECT resolved_at FROM sla_violations WHERE id = $1`, [violation]))[0],
    ).toEqual({ resolved_at: null });
  });
});
