import request from 'supertest';
import type { Auth } from '../support/catalog';
import { freshProduct, Product, seedFindings } from '../support/findings-seed';
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import {
  PROJECT_CALLERS,
  projectCallers,
  type ProjectCaller,
  type MatrixRoute,
  send,
  wrongAnswers,
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
let callers: Record<ProjectCaller, Auth | undefined>;

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
  callers = await projectCallers(t, admin, product.project_id);
}, 180_000);
afterAll(() => t.close());

describe('Access - ticket routes x caller', () => {
  it('every route answers each caller as the access table says', async () => {
    // 8 callers x every route, one after the other, on a shared 2-core machine.
    expect(await wrongAnswers(routes, PROJECT_CALLERS, callers)).toEqual([]);
  }, 180_000);
});
