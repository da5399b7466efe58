import request from 'supertest';
import { DataSource } from 'typeorm';
import type { Auth } from '../support/catalog';
import { freshProduct, seedFindings, type Product } from '../support/findings-seed';
import {
  PROJECT_CALLERS,
  projectCallers,
  send,
  wrongAnswers,
  type MatrixRoute,
  type ProjectCaller,
} from '../support/route-matrix';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Merge and unmerge x every kind of caller (docs/findings-service/merge.md): user tokens only
 * (every key 403, whatever it holds), `write_findings` on the project: an outsider cannot see
 * the findings (404, as for a missing one), a viewer sees them but may not change them (403),
 * analysts and admins merge and unmerge.
 */
let t: TestApp;
let admin: Login;
let product: Product;
let callers: Record<ProjectCaller, Auth | undefined>;

const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;

const ANALYST_UP = {
  anonymous: 401,
  'key: read_findings': 403,
  'key: every permission': 403,
  'user: not a member': 404,
  'user: viewer': 403,
  'user: analyst': 200,
  'user: project admin': 200,
  administrator: 200,
} as const;

/** Two fresh findings of the product, the second merged into the first when `merged`. */
async function pair(merged: boolean): Promise<[string, string]> {
  const [a, b] = await seedFindings(t, product, [{}, {}]);
  if (merged) {
    await request(t.url)
      .post('/api/v1/findings/merge')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ survivor_id: a, finding_ids: [b] })
      .expect(200);
  }
  return [a ?? '', b ?? ''];
}

const routes: MatrixRoute<ProjectCaller>[] = [
  {
    name: 'POST /api/v1/findings/merge',
    call: async (auth) => {
      const [a, b] = await pair(false);
      return send(
        request(t.url)
          .post('/api/v1/findings/merge')
          .send({ survivor_id: a, finding_ids: [b] }),
        auth,
      );
    },
    expected: ANALYST_UP,
  },
  {
    name: 'POST /api/v1/findings/{id}/unmerge (a merged member)',
    call: async (auth) => {
      const [, b] = await pair(true);
      return send(request(t.url).post(`/api/v1/findings/${b}/unmerge`), auth);
    },
    expected: ANALYST_UP,
  },
  {
    name: 'POST /api/v1/findings/{id}/unmerge (a survivor)',
    call: async (auth) => {
      const [a] = await pair(true);
      return send(request(t.url).post(`/api/v1/findings/${a}/unmerge`), auth);
    },
    expected: ANALYST_UP,
  },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  callers = await projectCallers(t, admin, product.project_id);
});
afterAll(() => t.close());

describe('Access - merge and unmerge routes x caller', () => {
  it('every route answers each caller as the access table says', async () => {
    expect(await wrongAnswers(routes, PROJECT_CALLERS, callers)).toEqual([]);
  });

  it('a refused caller changes nothing', async () => {
    const [a, b] = await pair(false);
    const [, merged] = await pair(true);
    for (const caller of ['user: viewer', 'user: not a member', 'key: every permission'] as const) {
      await send(
        request(t.url)
          .post('/api/v1/findings/merge')
          .send({ survivor_id: a, finding_ids: [b] }),
        callers[caller],
      );
      await send(request(t.url).post(`/api/v1/findings/${merged}/unmerge`), callers[caller]);
    }
    const rows = await sql(
      `SELECT id, merged_into_id IS NOT NULL AS merged FROM findings WHERE id = ANY($1::uuid[])`,
      [[a, b, merged]],
    );
    expect(Object.fromEntries(rows.map((r) => [r['id'], r['merged']]))).toEqual({
      [a]: false,
      [b]: false,
      [merged]: true,
    });
    expect(await sql(`SELECT 1 FROM finding_merges WHERE survivor_id = $1`, [a])).toEqual([]);
  });
});
