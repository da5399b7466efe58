import request from 'supertest';
import { DataSource } from 'typeorm';
import { bearer } from '../support/catalog';
import {
  freshLogin,
  keyWith,
  Product,
  seedFindings,
  uuid,
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

describe('Delete finding - /api/v1/findings/{id} (DELETE)', () => {
  it('project admins delete; the action log keeps a deleted entry', async () => {
    const [id] = await seedFindings(t, product, [{ title: 'to delete' }]);
    const projectAdmin = await freshMember(t, admin, product.project_id, 'admin');
    await bearer(projectAdmin)
      .apply(request(t.url).delete(`/api/v1/findings/${id}`))
      .expect(204);
    await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${id}`))
      .expect(404);
    const rows = (await t.app
      .get(DataSource)
      .query(
        `SELECT action, actor_type, actor_id, from_value FROM finding_actions WHERE finding_id = $1`,
        [id],
      )) as Record<string, unknown>[];
    expect(rows).toEqual([
      {
        action: 'deleted',
        actor_type: 'user',
        actor_id: projectAdmin.userId,
        from_value: expect.objectContaining({ title: 'to delete' }),
      },
    ]);
  });

  it('analysts 403, non-members and missing findings 404', async () => {
    const [id] = await seedFindings(t, product, [{}]);
    const analyst = await freshMember(t, admin, product.project_id, 'analyst');
    expect(
      (
        await bearer(analyst)
          .apply(request(t.url).delete(`/api/v1/findings/${id}`))
          .expect(403)
      ).body.code,
    ).toBe('access_denied');
    const stranger = await freshLogin(t, admin);
    await bearer(stranger)
      .apply(request(t.url).delete(`/api/v1/findings/${id}`))
      .expect(404);
    await bearer(admin)
      .apply(request(t.url).delete(`/api/v1/findings/${uuid()}`))
      .expect(404);
  });

  it('never by key, even with every findings permission globally', async () => {
    const [id] = await seedFindings(t, product, [{}]);
    const key = await keyWith(t, admin, [
      { permission: 'read_findings', level: 'global' },
      { permission: 'write_findings', level: 'global' },
    ]);
    const res = await key.apply(request(t.url).delete(`/api/v1/findings/${id}`)).expect(403);
    expect(res.body.code).toBe('access_denied');
    await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${id}`))
      .expect(200);
  });
});
