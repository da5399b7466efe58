import request from 'supertest';
import { addMember, apiKey, bearer, createProduct, createProject } from '../support/catalog';
import {
  freshServiceAccount,
  freshUser,
  grant,
  login,
  loginAdmin,
  Login,
} from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import { freshProduct } from '../support/findings-seed';

let t: TestApp;
let admin: Login;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
});
afterAll(() => t.close());

async function keyWith(permission: string, level: string, scope: Record<string, string> = {}) {
  const sa = await freshServiceAccount(t, admin);
  const res = await grant(t, admin, sa.id, { permission, level, ...scope });
  expect(res.status).toBe(201);
  return sa.key;
}

describe('Create product - /api/v1/projects/{id}/products (POST)', () => {
  it('creates a product with its fields; a duplicate name in the project is 409', async () => {
    const project = await createProject(t, bearer(admin));
    const res = await request(t.url)
      .post(`/api/v1/projects/${project.id}/products`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({
        name: 'api',
        description: 'd',
        repository_url: 'git@github.com:Acme/API.git',
        scan_enabled: true,
      })
      .expect(201);
    expect(res.body.data).toMatchObject({
      project_id: project.id,
      name: 'api',
      description: 'd',
      repository_url: 'git@github.com:Acme/API.git',
      scan_enabled: true,
    });
    await request(t.url)
      .post(`/api/v1/projects/${project.id}/products`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ name: 'api' })
      .expect(409);
  });

  it('needs create_product on that project: key for another project gets 404', async () => {
    const p1 = await createProject(t, bearer(admin));
    const p2 = await createProject(t, bearer(admin));
    const key = await keyWith('create_product', 'project', { project_id: p1.id });
    await createProduct(t, apiKey(key), p1.id);
    await request(t.url)
      .post(`/api/v1/projects/${p2.id}/products`)
      .set('X-API-Key', key)
      .send({ name: 'x' })
      .expect(404);
  });

  it('lets a project admin create products but not an analyst (403)', async () => {
    const project = await createProject(t, bearer(admin));
    const u = await freshUser(t, admin);
    const analyst = await login(t, u.email, u.password);
    await addMember(t, bearer(admin), project.id, analyst.userId, 'analyst');
    await request(t.url)
      .post(`/api/v1/projects/${project.id}/products`)
      .set('Authorization', `Bearer ${analyst.token}`)
      .send({ name: 'x' })
      .expect(403);
    await addMember(t, bearer(admin), project.id, analyst.userId, 'admin');
    await createProduct(t, bearer(analyst), project.id);
  });

  it('rejects a repository_url that is not a repository (400)', async () => {
    const project = await createProject(t, bearer(admin));
    const res = await request(t.url)
      .post(`/api/v1/projects/${project.id}/products`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ name: 'x', repository_url: 'not a repo' })
      .expect(400);
    expect(res.body.code).toBe('repository_url_invalid');
  });
});

describe('List and get products - /api/v1/projects/{id}/products, /api/v1/products/{id} (GET)', () => {
  it('members see the products of their project; outsiders get 404', async () => {
    const product = await freshProduct(t, admin);
    const u = await freshUser(t, admin);
    const viewer = await login(t, u.email, u.password);
    await request(t.url)
      .get(`/api/v1/products/${product.id}`)
      .set('Authorization', `Bearer ${viewer.token}`)
      .expect(404);
    await addMember(t, bearer(admin), product.project_id, viewer.userId, 'viewer');
    const list = await request(t.url)
      .get(`/api/v1/projects/${product.project_id}/products`)
      .set('Authorization', `Bearer ${viewer.token}`)
      .expect(200);
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([product.id]);
    await request(t.url)
      .get(`/api/v1/products/${product.id}`)
      .set('Authorization', `Bearer ${viewer.token}`)
      .expect(200);
  });
});

describe('Update product - /api/v1/products/{id} (PUT)', () => {
  it('changes fields with update_product; a viewer gets 403', async () => {
    const product = await freshProduct(t, admin);
    const key = await keyWith('update_product', 'product', { product_id: product.id });
    const res = await request(t.url)
      .put(`/api/v1/products/${product.id}`)
      .set('X-API-Key', key)
      .send({
        description: 'new',
        scan_enabled: true,
        repository_url: 'https://gitlab.example.com/g/r',
      })
      .expect(200);
    expect(res.body.data).toMatchObject({ description: 'new', scan_enabled: true });
    const u = await freshUser(t, admin);
    const viewer = await login(t, u.email, u.password);
    await addMember(t, bearer(admin), product.project_id, viewer.userId, 'viewer');
    await request(t.url)
      .put(`/api/v1/products/${product.id}`)
      .set('Authorization', `Bearer ${viewer.token}`)
      .send({ name: 'renamed' })
      .expect(403);
  });
});

describe('Delete product - /api/v1/products/{id} (DELETE)', () => {
  it('deletes with delete_product; then it is gone', async () => {
    const project = await createProject(t, bearer(admin));
    const product = await createProduct(t, bearer(admin), project.id);
    const key = await keyWith('delete_product', 'project', { project_id: project.id });
    await request(t.url).delete(`/api/v1/products/${product.id}`).set('X-API-Key', key).expect(204);
    await request(t.url)
      .get(`/api/v1/products/${product.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(404);
    await request(t.url).delete(`/api/v1/products/${product.id}`).set('X-API-Key', key).expect(404);
  });
});

describe('Look up products - /api/v1/products/lookup (GET)', () => {
  it('matches https, ssh and .git forms of one repository within the caller’s scope', async () => {
    const project = await createProject(t, bearer(admin));
    const repo = `github.com/acme/lookup-${Date.now()}`;
    const product = await createProduct(t, bearer(admin), project.id, {
      repository_url: `https://${repo}.git`,
    });
    const hidden = await createProject(t, bearer(admin));
    await createProduct(t, bearer(admin), hidden.id, { repository_url: `https://${repo}` });
    const key = await keyWith('list_products', 'project', { project_id: project.id });
    for (const form of [
      `git@github.com:${repo.slice('github.com/'.length)}.git`,
      `https://${repo.toUpperCase()}/`,
      `ssh://git@${repo}`,
    ]) {
      const res = await request(t.url)
        .get('/api/v1/products/lookup')
        .query({ repository_url: form })
        .set('X-API-Key', key)
        .expect(200);
      expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([product.id]);
    }
    await request(t.url)
      .get('/api/v1/products/lookup')
      .query({ repository_url: 'nope' })
      .set('X-API-Key', key)
      .expect(400);
  });
});

describe('Scan-enabled products - /api/v1/products/scan-enabled (GET)', () => {
  it('lists only enabled products the caller may list', async () => {
    const project = await createProject(t, bearer(admin));
    const on = await createProduct(t, bearer(admin), project.id, { scan_enabled: true });
    await createProduct(t, bearer(admin), project.id, { scan_enabled: false });
    const elsewhere = await createProject(t, bearer(admin));
    await createProduct(t, bearer(admin), elsewhere.id, { scan_enabled: true });
    const key = await keyWith('list_products', 'project', { project_id: project.id });
    const res = await request(t.url)
      .get('/api/v1/products/scan-enabled')
      .set('X-API-Key', key)
      .expect(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([on.id]);
    const noKey = await freshServiceAccount(t, admin);
    await request(t.url)
      .get('/api/v1/products/scan-enabled')
      .set('X-API-Key', noKey.key)
      .expect(403);
  });
});
