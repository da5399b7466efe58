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
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import {
  PROJECT_CALLERS,
  type ProjectCaller,
  type MatrixRoute,
  send,
} from '../support/route-matrix';
import { insertProviderRow } from '../tickets/support/provider-row';

/**
 * The ticket routes x every kind of caller (docs/findings-service/tickets.md, "Access"): user
 * tokens only — a service key gets 403 on each, whatever it holds; reading is membership,
 * configuring needs manage_notifications (project admin).
 */
let t: TestApp;
let admin: Login;
let product: Product;
let providerId: string;
let findingId: string;
const callers: Record<string, Auth | undefined> = {};

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

const PROJECT_ADMINS: Record<ProjectCaller, number> = {
  ...MEMBERS_READ,
  'user: viewer': 403,
  'user: analyst': 403,
};

/**
 * Acting on a finding: write_findings (a viewer reads it: 403). Called before the project has
 * a provider, so a caller past the access check gets 422 ticket_provider_not_configured.
 */
const FINDING_WRITERS: Record<ProjectCaller, number> = {
  ...MEMBERS_READ,
  'user: viewer': 403,
  'user: analyst': 422,
  'user: project admin': 422,
  administrator: 422,
};

const routes: Route[] = [
  {
    name: 'POST /api/v1/findings/{id}/ticket',
    call: (auth) =>
      send(request(t.url).post(`/api/v1/findings/${findingId}/ticket`).send({}), auth),
    expected: FINDING_WRITERS,
  },
  {
    name: 'POST /api/v1/findings/{id}/ticket/link',
    call: (auth) =>
      send(
        request(t.url).post(`/api/v1/findings/${findingId}/ticket/link`).send({ task_id: 'SEC-1' }),
        auth,
      ),
    expected: FINDING_WRITERS,
  },
  {
    name: 'POST /api/v1/findings/ticket/bulk',
    call: (auth) =>
      send(
        request(t.url)
          .post('/api/v1/findings/ticket/bulk')
          .send({ finding_ids: [findingId], title: 'matrix' }),
        auth,
      ),
    expected: FINDING_WRITERS,
  },
  {
    name: 'POST /api/v1/findings/ticket-url',
    call: (auth) =>
      send(
        request(t.url)
          .post('/api/v1/findings/ticket-url')
          .send({ finding_ids: [findingId] }),
        auth,
      ),
    expected: { ...FINDING_WRITERS, 'user: not a member': 404 },
  },
  {
    name: 'GET /api/v1/projects/{id}/ticket-targets',
    call: (auth) =>
      send(request(t.url).get(`/api/v1/projects/${product.project_id}/ticket-targets`), auth),
    expected: {
      ...MEMBERS_READ,
      'user: viewer': 422,
      'user: analyst': 422,
      'user: project admin': 422,
      administrator: 422,
    },
  },
  {
    // No credentials: the secret in the path decides (none issued here: 404 for everyone).
    name: 'POST /api/v1/webhooks/ticketing/{project_id}/{secret}',
    call: (auth) =>
      send(
        request(t.url)
          .post(`/api/v1/webhooks/ticketing/${product.project_id}/not-the-secret`)
          .send({}),
        auth,
      ),
    expected: Object.fromEntries(PROJECT_CALLERS.map((c) => [c, 404])) as Record<
      ProjectCaller,
      number
    >,
  },
  {
    name: 'GET /api/v1/ticket-providers',
    call: (auth) => send(request(t.url).get('/api/v1/ticket-providers'), auth),
    expected: { ...MEMBERS_READ, 'user: not a member': 200 },
  },
  {
    name: 'GET /api/v1/projects/{id}/ticket-provider/config',
    call: (auth) =>
      send(
        request(t.url).get(`/api/v1/projects/${product.project_id}/ticket-provider/config`),
        auth,
      ),
    expected: MEMBERS_READ,
  },
  {
    // Before the PUT below gives the project a provider: past the access check, 422.
    name: 'POST /api/v1/projects/{id}/tickets/backfill',
    call: (auth) =>
      send(
        request(t.url)
          .post(`/api/v1/projects/${product.project_id}/tickets/backfill`)
          .send({ mode: 'link_only' }),
        auth,
      ),
    expected: { ...PROJECT_ADMINS, 'user: project admin': 422, administrator: 422 },
  },
  {
    name: 'PUT /api/v1/projects/{id}/ticket-provider/config',
    call: (auth) =>
      send(
        request(t.url)
          .put(`/api/v1/projects/${product.project_id}/ticket-provider/config`)
          .send({ plugin_id: providerId, settings: {} }),
        auth,
      ),
    expected: PROJECT_ADMINS,
  },
  {
    name: 'POST /api/v1/projects/{id}/ticket-webhook/rotate',
    call: (auth) =>
      send(
        request(t.url).post(`/api/v1/projects/${product.project_id}/ticket-webhook/rotate`),
        auth,
      ),
    expected: PROJECT_ADMINS,
  },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  providerId = await insertProviderRow(t);
  [findingId] = (await seedFindings(t, product, [{ status: 'new' }])) as [string];
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
}, 180_000);
afterAll(() => t.close());

describe('Access - ticket routes x caller', () => {
  it('every route answers each caller as the access table says', async () => {
    // 8 callers x every route, one after the other, on a shared 2-core machine.
    const wrong: string[] = [];
    for (const route of routes) {
      for (const caller of PROJECT_CALLERS) {
        const { status, body } = await route.call(callers[caller]);
        if (status !== route.expected[caller]) {
          wrong.push(
            `${caller}: ${route.name} -> ${status} ${JSON.stringify(body).slice(0, 160)} (expected ${route.expected[caller]})`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 180_000);
});
