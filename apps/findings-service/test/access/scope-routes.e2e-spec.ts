import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { isLevelAllowed, PERMISSION_NAMES } from '../../src/app/access/permissions';
import { Auth, bearer, createProject } from '../support/catalog';
import { freshLogin, freshMember, keyWith } from '../support/findings-seed';
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import { type MatrixRoute, send } from '../support/route-matrix';

/**
 * The scan perimeter routes x every kind of caller (spec "Scan perimeter": export, entries,
 * filter and the proposal list need any permission on the project; proposals, inventory and
 * resolution reports `upload_report`; entries, decisions and the IPAM import `manage_scope`).
 * Keys reach every one of them with the permission.
 */
let t: TestApp;
let admin: Login;
let projectId = '';
let base = '';
const callers: Record<string, Auth | undefined> = {};

const CALLERS = [
  'anonymous',
  'key: upload_report',
  'key: manage_scope',
  'key: other permission',
  'key: every permission',
  'key: another project',
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

let counter = 0;
/** A value no other call used (entries of one mode may not overlap). */
const freshValue = () => `h${(counter += 1)}-${randomUUID().slice(0, 8)}.scope.example`;

async function freshEntry(): Promise<string> {
  const [row] = await sql(
    `INSERT INTO scope_entries (project_id, mode, kind, value, origin, created_by_type, created_at)
     VALUES ($1, 'include', 'domain', $2, 'manual', 'system', now()) RETURNING id`,
    [projectId, freshValue()],
  );
  return String(row?.['id']);
}

async function freshProposal(): Promise<string> {
  const [row] = await sql(
    `INSERT INTO scope_proposals (project_id, value, kind, status, proposed_by_type,
            first_proposed_at, last_proposed_at)
     VALUES ($1, $2, 'domain', 'pending', 'system', now(), now()) RETURNING id`,
    [projectId, freshValue()],
  );
  return String(row?.['id']);
}

/** Who holds a permission on the project: reading needs any, so a member or a key with one. */
const READ: Record<Caller, number> = {
  anonymous: 401,
  'key: upload_report': 200,
  'key: manage_scope': 200,
  'key: other permission': 200,
  'key: every permission': 200,
  'key: another project': 404,
  // a user with no role anywhere holds nothing: refused at the access check
  'user: not a member': 403,
  'user: viewer': 200,
  'user: analyst': 200,
  'user: project admin': 200,
  administrator: 200,
};

function upload(ok: number): Record<Caller, number> {
  return {
    anonymous: 401,
    'key: upload_report': ok,
    'key: manage_scope': 403,
    'key: other permission': 403,
    'key: every permission': ok,
    // holds upload_report, on another project: this one does not exist for it
    'key: another project': 404,
    'user: not a member': 403,
    'user: viewer': 403,
    'user: analyst': ok,
    'user: project admin': ok,
    administrator: ok,
  };
}

function manage(ok: number): Record<Caller, number> {
  return {
    anonymous: 401,
    'key: upload_report': 403,
    'key: manage_scope': ok,
    'key: other permission': 403,
    'key: every permission': ok,
    'key: another project': 404,
    'user: not a member': 403,
    'user: viewer': 403,
    'user: analyst': 403,
    'user: project admin': ok,
    administrator: ok,
  };
}

const routes: Route[] = [
  ...['', '/export', '/export?format=text', '/proposals', '/assets'].map((path): Route => ({
    name: `GET /api/v1/projects/{id}/scope${path}`,
    call: (auth) => send(request(t.url).get(`${base}${path}`), auth),
    expected: READ,
  })),
  {
    name: 'POST /api/v1/projects/{id}/scope/filter',
    call: (auth) =>
      send(
        request(t.url)
          .post(`${base}/filter`)
          .send({ targets: ['10.0.0.1'] }),
        auth,
      ),
    expected: READ,
  },
  {
    name: 'POST /api/v1/projects/{id}/scope/entries',
    call: (auth) =>
      send(
        request(t.url)
          .post(`${base}/entries`)
          .send({ entries: [{ value: freshValue() }] }),
        auth,
      ),
    expected: manage(201),
  },
  {
    name: 'DELETE /api/v1/projects/{id}/scope/entries/{entry_id}',
    call: async (auth) =>
      send(request(t.url).delete(`${base}/entries/${await freshEntry()}`), auth),
    expected: manage(204),
  },
  {
    name: 'POST /api/v1/projects/{id}/scope/proposals',
    call: (auth) =>
      send(request(t.url).post(`${base}/proposals`).send({ value: freshValue() }), auth),
    expected: upload(201),
  },
  ...(['confirm', 'reject'] as const).map((decision): Route => ({
    name: `POST /api/v1/projects/{id}/scope/proposals/{proposal_id}/${decision}`,
    call: async (auth) =>
      send(
        request(t.url)
          .post(`${base}/proposals/${await freshProposal()}/${decision}`)
          .send({}),
        auth,
      ),
    expected: manage(200),
  })),
  {
    name: 'POST /api/v1/projects/{id}/scope/assets',
    call: (auth) =>
      send(
        request(t.url)
          .post(`${base}/assets`)
          .send({ assets: [{ domain: freshValue(), ip: '192.0.2.1' }] }),
        auth,
      ),
    expected: upload(200),
  },
  {
    name: 'POST /api/v1/projects/{id}/scope/resolution-report',
    call: (auth) =>
      send(
        request(t.url)
          .post(`${base}/resolution-report`)
          .send({ domains: [{ domain: 'a.scope.example', resolving: false }] }),
        auth,
      ),
    expected: upload(200),
  },
  {
    // Past the access check the import reaches the request-forgery guard, which refuses a
    // loopback address (400) without the development setting: no network is touched.
    name: 'POST /api/v1/projects/{id}/scope/import/netbox',
    call: (auth) =>
      send(
        request(t.url)
          .post(`${base}/import/netbox`)
          .send({ base_url: 'https://127.0.0.1:9', token: 'matrix-token' }),
        auth,
      ),
    expected: manage(400),
  },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  projectId = (await createProject(t, bearer(admin))).id;
  base = `/api/v1/projects/${projectId}/scope`;
  const other = (await createProject(t, bearer(admin))).id;
  const on = (id: string) => ({ id: '', project_id: id, name: '' });
  callers['anonymous'] = undefined;
  callers['key: upload_report'] = await keyWith(t, admin, [
    { permission: 'upload_report', level: 'project', product: on(projectId) },
  ]);
  callers['key: manage_scope'] = await keyWith(t, admin, [
    { permission: 'manage_scope', level: 'project', product: on(projectId) },
  ]);
  callers['key: other permission'] = await keyWith(t, admin, [
    { permission: 'read_findings', level: 'project', product: on(projectId) },
  ]);
  callers['key: every permission'] = await keyWith(t, admin, [
    ...PERMISSION_NAMES.filter((p) => isLevelAllowed(p, 'global')).map((permission) => ({
      permission,
      level: 'global' as const,
    })),
    ...PERMISSION_NAMES.filter((p) => !isLevelAllowed(p, 'global')).map((permission) => ({
      permission,
      level: 'project' as const,
      product: on(projectId),
    })),
  ]);
  callers['key: another project'] = await keyWith(t, admin, [
    { permission: 'upload_report', level: 'project', product: on(other) },
    { permission: 'manage_scope', level: 'project', product: on(other) },
  ]);
  callers['user: not a member'] = bearer(await freshLogin(t, admin));
  for (const role of ['viewer', 'analyst'] as const) {
    callers[`user: ${role}`] = bearer(await freshMember(t, admin, projectId, role));
  }
  callers['user: project admin'] = bearer(await freshMember(t, admin, projectId, 'admin'));
  callers['administrator'] = bearer(admin);
});
afterAll(() => t.close());

describe('Access - scan perimeter routes x caller', () => {
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

  it('a refused caller changes nothing: entries, proposals and decisions stay as they were', async () => {
    const before = await sql(
      `SELECT (SELECT count(*) FROM scope_entries WHERE project_id = $1)::int AS entries,
              (SELECT count(*) FROM scope_proposals WHERE project_id = $1 AND status = 'pending')::int AS pending`,
      [projectId],
    );
    const entryId = await freshEntry();
    const proposalId = await freshProposal();
    for (const caller of ['user: analyst', 'key: upload_report', 'key: another project'] as const) {
      await send(request(t.url).delete(`${base}/entries/${entryId}`), callers[caller]);
      await send(request(t.url).post(`${base}/proposals/${proposalId}/confirm`), callers[caller]);
      await send(
        request(t.url)
          .post(`${base}/entries`)
          .send({ entries: [{ value: freshValue() }] }),
        callers[caller],
      );
    }
    const after = await sql(
      `SELECT (SELECT count(*) FROM scope_entries WHERE project_id = $1)::int AS entries,
              (SELECT count(*) FROM scope_proposals WHERE project_id = $1 AND status = 'pending')::int AS pending`,
      [projectId],
    );
    expect(after).toEqual([
      {
        entries: Number(before[0]?.['entries']) + 1,
        pending: Number(before[0]?.['pending']) + 1,
      },
    ]);
  });
});
