import request from 'supertest';
import { DataSource } from 'typeorm';
import { addMember, Auth, bearer } from '../support/catalog';
import {
  freshMember,
  freshProduct,
  Product,
  seedFindings,
  startWithProduct,
} from '../support/findings-seed';
import { freshUser, login, Login } from '../support/sessions';
import { countsByProjectSql } from '../../src/modules/findings/cascades/findings-cascades.sql';
import { TestApp } from '../support/test-app';

/**
 * People by name (issue 25): users found by name or e-mail for assignment and membership, a
 * member added by e-mail; and the finding counts of each project on the projects page.
 */
let t: TestApp;
let admin: Login;
let product: Product;
const tag = `z${Date.now().toString(36)}`;

const search = (auth: Auth, query: Record<string, string | number>) =>
  auth.apply(request(t.url).get('/api/v1/users/search').query(query));

async function person(name: string, email: string) {
  const user = await freshUser(t, admin);
  await t.app
    .get(DataSource)
    .query(`UPDATE users SET display_name = $2, email = $3 WHERE id = $1`, [user.id, name, email]);
  return { id: user.id, email, password: user.password };
}

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
});
afterAll(() => t.close());

describe('People search - /api/v1/users/search (GET)', () => {
  it('assignable: members and global admins by name or e-mail, prefix matches first', async () => {
    const anna = await person(`Anna ${tag}`, `anna.${tag}@example.test`);
    const hanna = await person(`Hanna ${tag}`, `h.${tag}@example.test`);
    const outsider = await person(`Annabel ${tag}`, `annabel.${tag}@example.test`);
    await addMember(t, bearer(admin), product.project_id, anna.id, 'viewer');
    await addMember(t, bearer(admin), product.project_id, hanna.id, 'analyst');
    const analyst = await login(t, hanna.email, hanna.password);
    const found = (
      await search(bearer(analyst), { project_id: product.project_id, q: `ANNA ${tag}` }).expect(
        200,
      )
    ).body.data;
    expect(found).toEqual([
      { id: anna.id, email: anna.email, display_name: `Anna ${tag}`, role: 'viewer' },
      { id: hanna.id, email: hanna.email, display_name: `Hanna ${tag}`, role: 'analyst' },
    ]);
    expect(found.map((p: { id: string }) => p.id)).not.toContain(outsider.id);
    const byMail = (
      await search(bearer(analyst), { project_id: product.project_id, q: `h.${tag}@` }).expect(200)
    ).body.data;
    expect(byMail.map((p: { id: string }) => p.id)).toEqual([hanna.id]);
    const limited = (
      await search(bearer(analyst), { project_id: product.project_id, q: tag, limit: 1 }).expect(
        200,
      )
    ).body.data;
    expect(limited).toHaveLength(1);
  });

  it('directory: every active user with their role, for admins of the project only', async () => {
    const dora = await person(`Dora ${tag}`, `dora.${tag}@example.test`);
    const projectAdmin = await freshMember(t, admin, product.project_id, 'admin');
    const found = (
      await search(bearer(projectAdmin), {
        project_id: product.project_id,
        q: `dora.${tag}`,
        scope: 'directory',
      }).expect(200)
    ).body.data;
    expect(found).toEqual([
      { id: dora.id, email: dora.email, display_name: `Dora ${tag}`, role: null },
    ]);
    const analyst = await freshMember(t, admin, product.project_id, 'analyst');
    const refused = await search(bearer(analyst), {
      project_id: product.project_id,
      q: 'dora',
      scope: 'directory',
    }).expect(403);
    expect(refused.body.code).toBe('access_denied');
  });

  it('refuses viewers (403), outsiders (404), keys and bad parameters (400 naming them)', async () => {
    const viewer = await freshMember(t, admin, product.project_id, 'viewer');
    expect(
      (await search(bearer(viewer), { project_id: product.project_id, q: 'ab' }).expect(403)).body
        .code,
    ).toBe('access_denied');
    const elsewhere = await freshMember(
      t,
      admin,
      (await freshProduct(t, admin)).project_id,
      'admin',
    );
    expect(
      (await search(bearer(elsewhere), { project_id: product.project_id, q: 'ab' }).expect(404))
        .body.code,
    ).toBe('project_not_found');
    for (const [query, field] of [
      [{ project_id: product.project_id, q: 'a' }, 'q'],
      [{ project_id: product.project_id, q: 'x'.repeat(101) }, 'q'],
      [{ project_id: 'nope', q: 'ab' }, 'project_id'],
      [{ project_id: product.project_id, q: 'ab', scope: 'all' }, 'scope'],
      [{ project_id: product.project_id, q: 'ab', limit: 51 }, 'limit'],
    ] as const) {
      const res = await search(bearer(admin), query).expect(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toEqual([field]);
    }
  });
});

describe('Member by e-mail - /api/v1/projects/{id}/members (POST)', () => {
  it('adds or changes a member by e-mail in any letter case; unknown e-mail 404', async () => {
    const eve = await person(`Eve ${tag}`, `eve.${tag}@example.test`);
    const path = `/api/v1/projects/${product.project_id}/members`;
    const added = await bearer(admin)
      .apply(request(t.url).post(path).send({ email: eve.email.toUpperCase(), role: 'analyst' }))
      .expect(200);
    expect(added.body.data).toMatchObject({ user_id: eve.id, email: eve.email, role: 'analyst' });
    await bearer(admin)
      .apply(request(t.url).post(path).send({ email: eve.email, role: 'viewer' }))
      .expect(200);
    const members = (await bearer(admin).apply(request(t.url).get(path)).expect(200)).body.data;
    expect(members.find((m: { user_id: string }) => m.user_id === eve.id).role).toBe('viewer');
    const unknown = await bearer(admin)
      .apply(
        request(t.url)
          .post(path)
          .send({ email: `nobody.${tag}@example.test`, role: 'viewer' }),
      )
      .expect(404);
    expect(unknown.body.code).toBe('user_not_found');
    const analyst = await freshMember(t, admin, product.project_id, 'analyst');
    expect(
      (
        await bearer(analyst)
          .apply(request(t.url).post(path).send({ email: eve.email, role: 'admin' }))
          .expect(403)
      ).body.code,
    ).toBe('access_denied');
    const bad = await bearer(admin)
      .apply(request(t.url).post(path).send({ email: 'not-an-email', role: 'viewer' }))
      .expect(400);
    expect(bad.body.fields.map((f: { field: string }) => f.field)).toEqual(['email']);
  });
});

describe('Project finding counts - /api/v1/projects[/{id}] (GET)', () => {
  it('counts every finding of the project, open and attention, open by severity', async () => {
    const own = await freshProduct(t, admin);
    const second = await freshProduct(t, admin, own.project_id);
    await seedFindings(t, own, [
      { severity: 'CRITICAL', status: 'new' },
      { severity: 'HIGH', status: 'risk_accepted' },
      { severity: 'HIGH', status: 'fixed' },
    ]);
    await seedFindings(t, second, [
      { severity: 'LOW', status: 'false_positive' },
      { severity: 'LOW', status: 'confirmed' },
    ]);
    const expected = {
      total: 5,
      open: 3,
      attention: 2,
      open_by_severity: { CRITICAL: 1, HIGH: 1, MEDIUM: 0, LOW: 1, INFO: 0 },
    };
    const one = await bearer(admin)
      .apply(request(t.url).get(`/api/v1/projects/${own.project_id}`))
      .expect(200);
    expect(one.body.data.finding_counts).toEqual(expected);
    const viewer = await freshMember(t, admin, own.project_id, 'viewer');
    const listed = (await bearer(viewer).apply(request(t.url).get('/api/v1/projects')).expect(200))
      .body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0].finding_counts).toEqual(expected);
    const empty = await freshProduct(t, admin);
    const none = await bearer(admin)
      .apply(request(t.url).get(`/api/v1/projects/${empty.project_id}`))
      .expect(200);
    expect(none.body.data.finding_counts).toEqual({
      total: 0,
      open: 0,
      attention: 0,
      open_by_severity: { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 },
    });
  });

  it('are an index-only scan, not a read of every finding', async () => {
    const { sql, values } = countsByProjectSql(['00000000-0000-4000-8000-000000000000']);
    const ds = t.app.get(DataSource);
    const plan = await ds.transaction(async (manager) => {
      // The test database is small: forbid the sequential scan a big one would not choose.
      await manager.query('SET LOCAL enable_seqscan = off');
      const rows = (await manager.query(`EXPLAIN (FORMAT TEXT) ${sql}`, values)) as {
        'QUERY PLAN': string;
      }[];
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Only Scan using ix_findings_project_id_status_severity/);
  });
});
