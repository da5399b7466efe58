import request from 'supertest';
import { DataSource } from 'typeorm';
import { bearer } from '../support/catalog';
import {
  freshProduct,
  keyWith,
  Product,
  seedFindings,
  freshMember,
  startWithProduct,
} from '../support/findings-seed';
import { Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

let t: TestApp;
let admin: Login;
let product: Product;

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
});
afterAll(() => t.close());

const tagsOf = async (ids: string[]) =>
  (await t.app
    .get(DataSource)
    .query(`SELECT id, tags FROM findings WHERE id = ANY($1::uuid[])`, [ids])) as {
    id: string;
    tags: string[];
  }[];
const logOf = async (ids: string[]) =>
  (await t.app
    .get(DataSource)
    .query(
      `SELECT finding_id, action, from_value, to_value, actor_type FROM finding_actions WHERE finding_id = ANY($1::uuid[]) ORDER BY id`,
      [ids],
    )) as {
    finding_id: string;
    action: string;
    from_value: { tags: string[] };
    to_value: { tags: string[] };
    actor_type: string;
  }[];

describe('Add finding tags - /api/v1/findings/{id}/tags (POST)', () => {
  it('normalizes (trim, lower case, unique, sorted) and logs tag_added', async () => {
    const [id] = await seedFindings(t, product, [{ tags: ['existing'] }]);
    const res = await bearer(admin)
      .apply(
        request(t.url)
          .post(`/api/v1/findings/${id}/tags`)
          .send({ tags: [' PCI ', 'team-payments', 'pci'] }),
      )
      .expect(200);
    expect(res.body.data.tags).toEqual(['existing', 'pci', 'team-payments']);
    expect(await logOf([id])).toEqual([
      expect.objectContaining({
        action: 'tag_added',
        actor_type: 'user',
        from_value: { tags: ['existing'] },
        to_value: { tags: ['existing', 'pci', 'team-payments'] },
      }),
    ]);
    // Adding what is there changes nothing and logs nothing.
    await bearer(admin)
      .apply(
        request(t.url)
          .post(`/api/v1/findings/${id}/tags`)
          .send({ tags: ['pci'] }),
      )
      .expect(200);
    expect(await logOf([id])).toHaveLength(1);
  });

  it('refuses bad tags (400), more than 50 per finding (422), keys (403) and viewers (403)', async () => {
    const [id] = await seedFindings(t, product, [
      { tags: Array.from({ length: 49 }, (_, i) => `t${i}`) },
    ]);
    for (const tags of [['has space'], ['x'.repeat(65)], [''], ['semi;colon']]) {
      const res = await bearer(admin)
        .apply(request(t.url).post(`/api/v1/findings/${id}/tags`).send({ tags }))
        .expect(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const over = await bearer(admin)
      .apply(
        request(t.url)
          .post(`/api/v1/findings/${id}/tags`)
          .send({ tags: ['a1', 'a2'] }),
      )
      .expect(422);
    expect(over.body.code).toBe('finding_tags_limit');
    await bearer(admin)
      .apply(
        request(t.url)
          .post(`/api/v1/findings/${id}/tags`)
          .send({ tags: ['a1'] }),
      )
      .expect(200);
    const key = await keyWith(t, admin, [{ permission: 'write_findings', level: 'global' }]);
    await key
      .apply(
        request(t.url)
          .post(`/api/v1/findings/${id}/tags`)
          .send({ tags: ['k'] }),
      )
      .expect(403);
    const viewer = await freshMember(t, admin, product.project_id, 'viewer');
    await bearer(viewer)
      .apply(
        request(t.url)
          .post(`/api/v1/findings/${id}/tags`)
          .send({ tags: ['v'] }),
      )
      .expect(403);
  });
});

describe('Remove finding tags - /api/v1/findings/{id}/tags (DELETE)', () => {
  it('removes manual tags only and logs tag_removed', async () => {
    const [id] = await seedFindings(t, product, [{ tags: ['a', 'b'], report_tags: ['a'] }]);
    const analyst = await freshMember(t, admin, product.project_id, 'analyst');
    const res = await bearer(analyst)
      .apply(
        request(t.url)
          .delete(`/api/v1/findings/${id}/tags`)
          .send({ tags: ['A'] }),
      )
      .expect(200);
    expect(res.body.data).toMatchObject({ tags: ['b'], report_tags: ['a'] });
    expect(await logOf([id])).toEqual([
      expect.objectContaining({
        action: 'tag_removed',
        from_value: { tags: ['a', 'b'] },
        to_value: { tags: ['b'] },
      }),
    ]);
  });
});

describe('Bulk tags - /api/v1/findings/bulk-tags (POST)', () => {
  it('by ids: one action-log entry per finding changed', async () => {
    const ids = await seedFindings(t, product, [{ tags: ['old'] }, { tags: ['new-one'] }, {}]);
    const res = await bearer(admin)
      .apply(
        request(t.url)
          .post('/api/v1/findings/bulk-tags')
          .send({ finding_ids: ids, add: ['New-One'], remove: ['old'] }),
      )
      .expect(200);
    expect(res.body.data).toEqual({ matched: 3, changed: 2, over_limit: 0 });
    const tags = new Map((await tagsOf(ids)).map((r) => [r.id, r.tags]));
    expect(ids.map((id) => tags.get(id))).toEqual([['new-one'], ['new-one'], ['new-one']]);
    const log = await logOf(ids);
    expect(log.map((e) => [ids.indexOf(e.finding_id), e.action]).sort()).toEqual([
      [0, 'tags_changed'],
      [2, 'tag_added'],
    ]);
  });

  it('by q and filters: only matching, writable findings; a syntax error changes nothing', async () => {
    const ids = await seedFindings(t, product, [
      { severity: 'CRITICAL', host: 'prod-1' },
      { severity: 'HIGH', host: 'prod-2' },
      { severity: 'CRITICAL', host: 'dev-1' },
    ]);
    const other = await freshProduct(t, admin);
    const [foreign] = await seedFindings(t, other, [{ severity: 'CRITICAL', host: 'prod-9' }]);
    const analyst = await freshMember(t, admin, product.project_id, 'analyst');
    const bad = await bearer(analyst)
      .apply(
        request(t.url)
          .post('/api/v1/findings/bulk-tags')
          .send({ q: 'host:', add: ['x'] }),
      )
      .expect(400);
    expect(bad.body.code).toBe('query_syntax_error');
    const res = await bearer(analyst)
      .apply(
        request(t.url)
          .post('/api/v1/findings/bulk-tags')
          .send({ q: 'host:prod', filters: { severity: 'critical' }, add: ['hot'] }),
      )
      .expect(200);
    expect(res.body.data).toEqual({ matched: 1, changed: 1, over_limit: 0 });
    const tags = new Map((await tagsOf([...ids, foreign])).map((r) => [r.id, r.tags]));
    expect([...ids, foreign].map((id) => tags.get(id))).toEqual([['hot'], [], [], []]);
  });

  it('users only; needs a selection and at least one tag', async () => {
    const key = await keyWith(t, admin, [{ permission: 'write_findings', level: 'global' }]);
    await key
      .apply(
        request(t.url)
          .post('/api/v1/findings/bulk-tags')
          .send({ q: 'severity:high', add: ['x'] }),
      )
      .expect(403);
    const none = await bearer(admin)
      .apply(
        request(t.url)
          .post('/api/v1/findings/bulk-tags')
          .send({ add: ['x'] }),
      )
      .expect(400);
    expect(none.body.code).toBe('bulk_selection_required');
    const noTags = await bearer(admin)
      .apply(request(t.url).post('/api/v1/findings/bulk-tags').send({ q: 'severity:high' }))
      .expect(400);
    expect(noTags.body.code).toBe('validation_failed');
  });

  it('localized errors: Russian with Accept-Language ru', async () => {
    const res = await bearer(admin)
      .apply(
        request(t.url)
          .post('/api/v1/findings/bulk-tags')
          .set('Accept-Language', 'ru')
          .send({ add: ['x'] }),
      )
      .expect(400);
    expect(res.body).toEqual({
      code: 'bulk_selection_required',
      error: 'укажите находки: finding_ids либо q и/или фильтры',
    });
  });
});
