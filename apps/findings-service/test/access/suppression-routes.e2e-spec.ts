import request from 'supertest';
import type { Auth } from '../support/catalog';
import { freshProduct, type Product } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  PROJECT_CALLERS,
  projectCallers,
  type ProjectCaller,
  type MatrixRoute,
  send,
  wrongAnswers,
} from '../support/route-matrix';

/**
 * The suppression-rule routes x every kind of caller (docs/findings-service/suppression.md,
 * "Routes"): user tokens only — a service key gets 403 whatever it holds; reading is
 * membership (outsiders 404), changing, previewing and running need write_findings (viewers 403).
 */
let t: TestApp;
let admin: Login;
let product: Product;
let callers: Record<ProjectCaller, Auth | undefined>;
let ruleId: string;
let disabledRuleId: string;
/** Rules the DELETE calls consume, one per call. */
const doomed: string[] = [];

type Route = MatrixRoute<ProjectCaller>;

const MEMBERS_READ: Record<ProjectCaller, number> = {
  anonymous: 401,
  'key: read_findings': 403,
  'key: every permission': 403,
  'user: not a member': 404,
  'user: viewer': 200,
  'user: analyst': 200,
  'user: project admin': 200,
  administrator: 200,
};

const writers = (status: number): Record<ProjectCaller, number> => ({
  ...MEMBERS_READ,
  'user: viewer': 403,
  'user: analyst': status,
  'user: project admin': status,
  administrator: status,
});

const base = () => `/api/v1/projects/${product.project_id}/suppression-rules`;

async function newRule(body: Record<string, unknown>): Promise<string> {
  const res = await request(t.url)
    .post(base())
    .set('Authorization', `Bearer ${admin.token}`)
    .send({ name: 'matrix', ...body })
    .expect(201);
  return (res.body as { data: { id: string } }).data.id;
}

const routes: Route[] = [
  {
    name: 'GET /api/v1/projects/{id}/suppression-rules',
    call: (auth) => send(request(t.url).get(base()), auth),
    expected: MEMBERS_READ,
  },
  {
    name: 'GET /api/v1/projects/{id}/suppression-rules/{rule_id}/actions',
    call: (auth) => send(request(t.url).get(`${base()}/${ruleId}/actions`), auth),
    expected: MEMBERS_READ,
  },
  {
    name: 'POST /api/v1/projects/{id}/suppression-rules',
    call: (auth) =>
      send(request(t.url).post(base()).send({ name: 'm', query: 'rule:matrix-*' }), auth),
    expected: writers(201),
  },
  {
    name: 'POST /api/v1/projects/{id}/suppression-rules/preview',
    call: (auth) =>
      send(request(t.url).post(`${base()}/preview`).send({ query: 'scanner:x' }), auth),
    expected: writers(200),
  },
  {
    name: 'PUT /api/v1/projects/{id}/suppression-rules/{rule_id}',
    call: (auth) =>
      send(request(t.url).put(`${base()}/${ruleId}`).send({ reason: 'matrix' }), auth),
    expected: writers(200),
  },
  {
    // A disabled rule: past the access check, 409 suppression_rule_disabled (no worker here).
    name: 'POST /api/v1/projects/{id}/suppression-rules/{rule_id}/run',
    call: (auth) => send(request(t.url).post(`${base()}/${disabledRuleId}/run`), auth),
    expected: writers(409),
  },
  {
    name: 'DELETE /api/v1/projects/{id}/suppression-rules/{rule_id}',
    call: (auth) => send(request(t.url).delete(`${base()}/${doomed.pop() ?? ''}`), auth),
    expected: writers(204),
  },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  callers = await projectCallers(t, admin, product.project_id);
  ruleId = await newRule({ query: 'scanner:matrix' });
  disabledRuleId = await newRule({ query: 'scanner:off', enabled: false });
  for (let i = 0; i < PROJECT_CALLERS.length; i += 1) {
    doomed.push(await newRule({ query: `rule:doomed-${i}` }));
  }
}, 180_000);
afterAll(() => t.close());

describe('Access - suppression-rule routes x caller', () => {
  it('every route answers each caller as the access table says', async () => {
    expect(await wrongAnswers(routes, PROJECT_CALLERS, callers)).toEqual([]);
  }, 180_000);

  it('a refused caller changes nothing', async () => {
    const res = await request(t.url)
      .get(base())
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    const rules = (res.body as { data: { id: string; reason: string | null }[] }).data;
    // Of the eight doomed rules the three writers deleted three, and their three POSTs added
    // three: a refused POST or DELETE changed nothing.
    const others = rules.filter((r) => r.id !== ruleId && r.id !== disabledRuleId);
    expect(others).toHaveLength(PROJECT_CALLERS.length - 3 + 3);
    expect(doomed).toHaveLength(0);
  });
});
