import request from 'supertest';
import { DataSource } from 'typeorm';
import { addMember, Auth, bearer } from '../support/catalog';
import {
  freshMember,
  freshProduct,
  keyWith,
  Product,
  seedFindings,
  startWithProduct,
  uuid,
} from '../support/findings-seed';
import { freshUser, login, Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

let t: TestApp;
let admin: Login;
let product: Product;

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
});
afterAll(() => t.close());

const base = (id: string) => `/api/v1/findings/${id}/comments`;
const post = (auth: Auth, id: string, body: unknown) =>
  auth.apply(
    request(t.url)
      .post(base(id))
      .send(body as object),
  );
const list = (auth: Auth, id: string, query: Record<string, string | number> = {}) =>
  auth.apply(request(t.url).get(base(id)).query(query));
const one = () => seedFindings(t, product, [{}]).then(([id]) => id!);

async function member(role: 'viewer' | 'analyst' | 'admin') {
  const user = await freshUser(t, admin);
  const signed = await login(t, user.email, user.password);
  await addMember(t, bearer(admin), product.project_id, signed.userId, role);
  return { ...signed, email: user.email };
}

describe('Finding comments - /api/v1/findings/{id}/comments', () => {
  it('a thread: each comment with its author and time, oldest first, paged with after', async () => {
    const id = await one();
    const analyst = await member('analyst');
    const first = await post(bearer(analyst), id, { body: '  reproduced on staging  ' }).expect(
      201,
    );
    expect(first.body.data).toMatchObject({
      finding_id: id,
      author: { id: analyst.userId, email: analyst.email, display_name: expect.any(String) },
      body: 'reproduced on staging',
      edited_at: null,
    });
    expect(Date.parse(first.body.data.created_at)).toBeGreaterThan(Date.now() - 60_000);
    await post(bearer(admin), id, { body: 'second' }).expect(201);
    await post(bearer(analyst), id, { body: 'third' }).expect(201);
    const all = (await list(bearer(admin), id).expect(200)).body.data;
    expect(all.map((c: { body: string }) => c.body)).toEqual([
      'reproduced on staging',
      'second',
      'third',
    ]);
    const page = (await list(bearer(admin), id, { limit: 1, after: all[0].id }).expect(200)).body
      .data;
    expect(page.map((c: { body: string }) => c.body)).toEqual(['second']);
    // Another finding's comment is no cursor here.
    const other = await one();
    expect((await list(bearer(admin), other, { after: all[0].id }).expect(404)).body.code).toBe(
      'comment_not_found',
    );
    expect((await list(bearer(admin), other).expect(200)).body.data).toEqual([]);
  });

  it('a viewer and a key with read_findings read; only analysts and admins write', async () => {
    const id = await one();
    await post(bearer(admin), id, { body: 'note' }).expect(201);
    const viewer = await member('viewer');
    expect((await list(bearer(viewer), id).expect(200)).body.data).toHaveLength(1);
    expect((await post(bearer(viewer), id, { body: 'mine' }).expect(403)).body.code).toBe(
      'access_denied',
    );
    const key = await keyWith(t, admin, [
      { permission: 'read_findings', level: 'project', product },
    ]);
    expect((await list(key, id).expect(200)).body.data).toHaveLength(1);
    await post(key, id, { body: 'by key' }).expect(403);
    const stranger = await freshMember(
      t,
      admin,
      (await freshProduct(t, admin)).project_id,
      'admin',
    );
    expect((await post(bearer(stranger), id, { body: 'x' }).expect(404)).body.code).toBe(
      'finding_not_found',
    );
    expect((await list(bearer(stranger), id).expect(404)).body.code).toBe('finding_not_found');
    expect((await list(bearer(admin), uuid()).expect(404)).body.code).toBe('finding_not_found');
  });

  it('refuses an empty, blank, too long or missing body with the field named', async () => {
    const id = await one();
    for (const body of [
      {},
      { body: '' },
      { body: '   ' },
      { body: 'x'.repeat(4001) },
      { body: 3 },
    ]) {
      const res = await post(bearer(admin), id, body).expect(400);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
      expect(res.body.fields.map((f: { field: string }) => f.field)).toEqual(['body']);
    }
    await post(bearer(admin), id, { body: 'x'.repeat(4000) }).expect(201);
  });

  it('only the author edits; the author or an administrator deletes', async () => {
    const id = await one();
    const author = await member('analyst');
    const other = await member('analyst');
    const projectAdmin = await member('admin');
    const c = (await post(bearer(author), id, { body: 'first take' }).expect(201)).body.data;
    const path = `${base(id)}/${c.id}`;
    for (const who of [other, projectAdmin, admin]) {
      const res = await bearer(who).apply(request(t.url).patch(path).send({ body: 'hijack' }));
      expect([res.status, res.body.code]).toEqual([403, 'access_denied']);
    }
    const edited = await bearer(author)
      .apply(request(t.url).patch(path).send({ body: 'second take' }))
      .expect(200);
    expect(edited.body.data).toMatchObject({ id: c.id, body: 'second take' });
    expect(edited.body.data.edited_at).toEqual(expect.any(String));
    expect((await bearer(other).apply(request(t.url).delete(path)).expect(403)).body.code).toBe(
      'access_denied',
    );
    await bearer(author).apply(request(t.url).delete(path)).expect(204);
    expect((await bearer(author).apply(request(t.url).delete(path)).expect(404)).body.code).toBe(
      'comment_not_found',
    );
    const c2 = (await post(bearer(other), id, { body: 'off topic' }).expect(201)).body.data;
    await bearer(projectAdmin)
      .apply(request(t.url).delete(`${base(id)}/${c2.id}`))
      .expect(204);
    const c3 = (await post(bearer(other), id, { body: 'again' }).expect(201)).body.data;
    await bearer(admin)
      .apply(request(t.url).delete(`${base(id)}/${c3.id}`))
      .expect(204);
    expect((await list(bearer(admin), id).expect(200)).body.data).toEqual([]);
    // A comment addressed through another finding is unknown there.
    const c4 = (await post(bearer(author), id, { body: 'stay' }).expect(201)).body.data;
    const elsewhere = await one();
    const wrong = await bearer(author).apply(
      request(t.url)
        .patch(`${base(elsewhere)}/${c4.id}`)
        .send({ body: 'moved' }),
    );
    expect([wrong.status, wrong.body.code]).toEqual([404, 'comment_not_found']);
  });

  it("keeps a deleted author's e-mail; deleting the finding deletes its thread", async () => {
    const id = await one();
    const user = await freshUser(t, admin);
    const author = await login(t, user.email, user.password);
    await addMember(t, bearer(admin), product.project_id, author.userId, 'analyst');
    await post(bearer(author), id, { body: 'before I leave' }).expect(201);
    await bearer(admin)
      .apply(request(t.url).delete(`/api/v1/admin/users/${author.userId}`))
      .expect(204);
    const [c] = (await list(bearer(admin), id).expect(200)).body.data;
    expect(c.author).toMatchObject({ id: null, email: user.email });
    await bearer(admin)
      .apply(request(t.url).delete(`/api/v1/findings/${id}`))
      .expect(204);
    const left = await t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM finding_comments WHERE finding_id = $1`, [id]);
    expect(left).toEqual([{ n: 0 }]);
  });

  it('deleting a product deletes the threads of its findings', async () => {
    const p = await freshProduct(t, admin, product.project_id);
    const [id] = await seedFindings(t, p, [{}]);
    await post(bearer(admin), id!, { body: 'gone soon' }).expect(201);
    await bearer(admin)
      .apply(request(t.url).delete(`/api/v1/products/${p.id}`))
      .expect(204);
    const left = await t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM finding_comments WHERE finding_id = $1`, [id]);
    expect(left).toEqual([{ n: 0 }]);
  });
});
