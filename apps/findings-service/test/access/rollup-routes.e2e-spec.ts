import request from 'supertest';
import { bearer, type Auth } from '../support/catalog';
import { freshMember, freshProduct, Product, seedFindings } from '../support/findings-seed';
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

/**
 * Group axes and inventory roll-ups × every kind of caller
 * (docs/findings-service/groups-and-rollups.md, "Access"). Group axes read like a finding
 * (read_findings, users and keys). Roll-ups need a user token (a key: 403 whatever it holds);
 * reading them is membership (a member of another project sees none of this one's rows), the
 * row's bulk action write_findings (a viewer or a user outside: 403).
 */
let t: TestApp;
let admin: Login;
let product: Product;
let findingId: string;
let callers: Record<ProjectCaller, Auth | undefined>;
const PKG = `matrix-pkg-${Date.now()}`;

type Route = MatrixRoute<ProjectCaller>;

// A user holding no read_findings anywhere is refused by the access check (as GET /findings).
const FINDING_READERS: Record<ProjectCaller, number> = {
  anonymous: 401,
  'key: read_findings': 200,
  'key: every permission': 200,
  'user: not a member': 403,
  'user: viewer': 200,
  'user: analyst': 200,
  'user: project admin': 200,
  administrator: 200,
};

const ROLLUP_READERS: Record<ProjectCaller, number> = {
  ...FINDING_READERS,
  'key: read_findings': 403,
  'key: every permission': 403,
};

const ROLLUP_WRITERS: Record<ProjectCaller, number> = {
  ...ROLLUP_READERS,
  'user: not a member': 403,
  'user: viewer': 403,
};

const routes: Route[] = [
  {
    name: 'GET /api/v1/findings/{id}/group-axes',
    call: (auth) => send(request(t.url).get(`/api/v1/findings/${findingId}/group-axes`), auth),
    expected: FINDING_READERS,
  },
  {
    name: 'GET /api/v1/findings/{id}/group-axes/members',
    call: (auth) =>
      send(
        request(t.url)
          .get(`/api/v1/findings/${findingId}/group-axes/members`)
          .query({ axis: 'package' }),
        auth,
      ),
    expected: FINDING_READERS,
  },
  {
    // Users reach it; the group changes only what they may write (nothing for a viewer).
    name: 'POST /api/v1/findings/bulk-status (group)',
    call: (auth) =>
      send(
        request(t.url)
          .post('/api/v1/findings/bulk-status')
          .send({ group: { finding_id: findingId, axis: 'package' }, status: 'confirmed' }),
        auth,
      ),
    expected: {
      ...FINDING_READERS,
      'key: read_findings': 403,
      'key: every permission': 403,
      // Past the user check: the finding is not readable.
      'user: not a member': 404,
    },
  },
  {
    name: 'GET /api/v1/findings/inventory-rollup',
    call: (auth) =>
      send(
        request(t.url).get('/api/v1/findings/inventory-rollup').query({ axis: 'package' }),
        auth,
      ),
    expected: ROLLUP_READERS,
  },
  {
    name: 'GET /api/v1/findings/inventory-rollup/members',
    call: (auth) =>
      send(
        request(t.url)
          .get('/api/v1/findings/inventory-rollup/members')
          .query({ axis: 'package', key: PKG }),
        auth,
      ),
    expected: ROLLUP_READERS,
  },
  {
    name: 'POST /api/v1/findings/inventory-rollup/bulk-status (wont_fix)',
    call: (auth) =>
      send(
        request(t.url).post('/api/v1/findings/inventory-rollup/bulk-status').send({
          axis: 'package',
          key: PKG,
          action: 'wont_fix',
          justification: 'matrix',
        }),
        auth,
      ),
    expected: ROLLUP_WRITERS,
  },
  {
    // Past the access check: the project has no ticket provider.
    name: 'POST /api/v1/findings/inventory-rollup/bulk-status (ticket)',
    call: (auth) =>
      send(
        request(t.url)
          .post('/api/v1/findings/inventory-rollup/bulk-status')
          .send({ axis: 'package', key: PKG, action: 'ticket' }),
        auth,
      ),
    expected: {
      ...ROLLUP_WRITERS,
      'user: analyst': 422,
      'user: project admin': 422,
      administrator: 422,
    },
  },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  [findingId] = await seedFindings(t, product, [
    { component: PKG, status: 'new' },
    { component: PKG, status: 'new' },
  ]);
  callers = await projectCallers(t, admin, product.project_id);
});
afterAll(async () => {
  await t.close();
});

describe('Group and roll-up routes × callers', () => {
  it('answers every caller as the table says', async () => {
    expect(await wrongAnswers(routes, PROJECT_CALLERS, callers)).toEqual([]);
  });

  it('a member of another project sees an empty roll-up, never this project’s rows', async () => {
    const elsewhere = bearer(
      await freshMember(t, admin, (await freshProduct(t, admin)).project_id, 'admin'),
    );
    const res = await send(
      request(t.url).get('/api/v1/findings/inventory-rollup').query({ axis: 'package' }),
      elsewhere,
    );
    expect(res.body).toEqual({ data: { items: [], next_cursor: null } });
    const members = await send(
      request(t.url)
        .get('/api/v1/findings/inventory-rollup/members')
        .query({ axis: 'package', key: PKG }),
      elsewhere,
    );
    expect(members.body).toEqual({ data: { items: [], next_cursor: null } });
  });
});
