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
import {
  PROJECT_CALLERS,
  type ProjectCaller,
  type MatrixRoute,
  send,
} from '../support/route-matrix';

/**
 * The routes that use installed plugins (enrichment, capability lists, project channels) x every
 * kind of caller
 * (docs/plugins/enrichment.md): user tokens only; manual enrichment needs write_findings on the
 * finding (a finding the caller cannot read is 404). The manual call names an enricher that is
 * not installed, so a caller past the access check gets 404 enricher_not_found.
 */
let t: TestApp;
let admin: Login;
let product: Product;
let findingId: string;
const callers: Record<string, Auth | undefined> = {};

const CALLERS = PROJECT_CALLERS;
type Caller = ProjectCaller;

type Route = MatrixRoute<Caller>;

const NOT_INSTALLED = '00000000-0000-4000-8000-00000000e001';
let channelId: string;
let regionalId: string;

/** Reading a project's channels: its members (user tokens). */
const MEMBERS_READ: Record<Caller, number> = {
  anonymous: 401,
  'key: read_findings': 403,
  'key: every permission': 403,
  'user: not a member': 404,
  'user: viewer': 200,
  'user: analyst': 200,
  'user: project admin': 200,
  administrator: 200,
};

const routes: Route[] = [
  {
    name: 'POST /api/v1/findings/{id}/enrich-tags/{plugin_id}',
    call: (auth) =>
      send(request(t.url).post(`/api/v1/findings/${findingId}/enrich-tags/${NOT_INSTALLED}`), auth),
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: every permission': 403,
      'user: not a member': 404,
      'user: viewer': 403,
      'user: analyst': 404,
      'user: project admin': 404,
      administrator: 404,
    },
  },
  ...['finding-enrichers', 'inventory-sources'].map((kind): Route => ({
    name: `GET /api/v1/plugins/capabilities/${kind}`,
    call: (auth) => send(request(t.url).get(`/api/v1/plugins/capabilities/${kind}`), auth),
    expected: {
      anonymous: 401,
      'key: read_findings': 403,
      'key: every permission': 403,
      'user: not a member': 200,
      'user: viewer': 200,
      'user: analyst': 200,
      'user: project admin': 200,
      administrator: 200,
    },
  })),
  {
    name: 'GET /api/v1/projects/{id}/plugin-channels',
    call: (auth) =>
      send(request(t.url).get(`/api/v1/projects/${product.project_id}/plugin-channels`), auth),
    expected: MEMBERS_READ,
  },
  {
    name: 'GET /api/v1/projects/{id}/plugin-channels/{plugin_id}/config',
    call: (auth) =>
      send(
        request(t.url).get(
          `/api/v1/projects/${product.project_id}/plugin-channels/${channelId}/config`,
        ),
        auth,
      ),
    expected: MEMBERS_READ,
  },
  {
    name: 'PUT /api/v1/projects/{id}/plugin-channels/{plugin_id}/config',
    call: (auth) =>
      send(
        request(t.url)
          .put(`/api/v1/projects/${product.project_id}/plugin-channels/${channelId}/config`)
          .send({ settings: { enabled: true } }),
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
    name: 'GET /api/v1/projects/{id}/plugin-settings/{plugin_id}',
    call: (auth) =>
      send(
        request(t.url).get(`/api/v1/projects/${product.project_id}/plugin-settings/${regionalId}`),
        auth,
      ),
    expected: MEMBERS_READ,
  },
  {
    name: 'PUT /api/v1/projects/{id}/plugin-settings/{plugin_id}',
    call: (auth) =>
      send(
        request(t.url)
          .put(`/api/v1/projects/${product.project_id}/plugin-settings/${regionalId}`)
          .send({ settings: { region: 'eu' } }),
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
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  [findingId] = (await seedFindings(t, product, [{ status: 'new' }])) as [string];
  const manifest = Buffer.from(
    JSON.stringify({
      id: 'matrix-channel',
      version: '1.0.0',
      capabilities: ['notification_channel'],
      runtime: 'native',
      wit_version: '0.1.0',
      min_service_version: '>=0.33',
      allowed_hosts: [],
      settings: [],
      artifact_sha256: 'b'.repeat(64),
    }),
  );
  const [row] = (await t.app.get(DataSource).query(
    `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
            artifact_sha256, manifest, capabilities)
     VALUES ('sideload', 'matrix-channel', 'native', true, '1.0.0', $1, $2, '{notification_channel}')
     RETURNING id`,
    ['b'.repeat(64), manifest],
  )) as { id: string }[];
  channelId = row?.id as string;
  // A WebAssembly enricher with per-project settings (the plugin-settings routes).
  const regional = Buffer.from(
    JSON.stringify({
      id: 'matrix-regional',
      version: '1.0.0',
      capabilities: ['finding_enricher'],
      runtime: 'wasm',
      wit_version: '0.1.0',
      min_service_version: '>=0.33',
      allowed_hosts: [],
      settings: [{ name: 'region', type: 'string', per_project: true }],
      artifact_sha256: 'c'.repeat(64),
    }),
  );
  const [regionalRow] = (await t.app.get(DataSource).query(
    `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
            artifact_sha256, manifest, capabilities)
     VALUES ('sideload', 'matrix-regional', 'wasm', true, '1.0.0', $1, $2, '{finding_enricher}')
     RETURNING id`,
    ['c'.repeat(64), regional],
  )) as { id: string }[];
  regionalId = regionalRow?.id as string;
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

describe('Access - plugin use routes (enrichment, capabilities) x caller', () => {
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
});
