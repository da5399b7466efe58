import request from 'supertest';
import { apiKey, bearer, createProduct } from '../support/catalog';
import { findingsOf } from '../support/findings-db';
import { freshServiceAccount, grant, loginAdmin, Login } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp, TestApp } from '../support/test-app';
import { freshProduct } from '../support/findings-seed';

let t: TestApp;
let admin: Login;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
});
afterAll(() => t.close());

describe('Manual finding - /api/v1/products/{id}/findings (POST)', () => {
  it('creates a finding (201) and returns the same one when re-entered (200)', async () => {
    const product = await freshProduct(t, admin);
    const body = {
      title: 'Open Redis',
      severity: 'HIGH',
      host: 'cache.internal',
      port: 6379,
      protocol: 'tcp',
      scanner: 'pentest',
    };
    const first = await request(t.url)
      .post(`/api/v1/products/${product.id}/findings`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send(body)
      .expect(201);
    expect(first.body.data).toMatchObject({
      title: 'Open Redis',
      severity: 'HIGH',
      status: 'new',
      host: 'cache.internal',
      port: 6379,
    });
    const again = await request(t.url)
      .post(`/api/v1/products/${product.id}/findings`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ ...body, title: 'Same port, new words', scanner: 'someone-else' })
      .expect(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await findingsOf(t, product.id)).toHaveLength(1);
    // Creation is in the action log once, with the user who entered it; re-entry adds nothing.
    const actions = await request(t.url)
      .get(`/api/v1/findings/${first.body.data.id}/actions`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(actions.body.data).toEqual([
      expect.objectContaining({
        action: 'created',
        actor: { type: 'user', id: admin.userId, label: ADMIN_EMAIL, name: expect.any(String) },
      }),
    ]);
  });

  it('needs a location (400) and upload_report on the product (key elsewhere: 404)', async () => {
    const product = await freshProduct(t, admin);
    await request(t.url)
      .post(`/api/v1/products/${product.id}/findings`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ title: 'x', severity: 'LOW' })
      .expect(400);
    const sa = await freshServiceAccount(t, admin);
    const other = await createProduct(t, bearer(admin), product.project_id);
    expect(
      (
        await grant(t, admin, sa.id, {
          permission: 'upload_report',
          level: 'product',
          product_id: other.id,
        })
      ).status,
    ).toBe(201);
    await request(t.url)
      .post(`/api/v1/products/${product.id}/findings`)
      .set('X-API-Key', sa.key)
      .send({ title: 'x', severity: 'LOW', path: 'a.c' })
      .expect(404);
    await apiKey(sa.key)
      .apply(
        request(t.url)
          .post(`/api/v1/products/${other.id}/findings`)
          .send({ title: 'x', severity: 'LOW', path: 'a.c', start_line: 3 }),
      )
      .expect(201);
  });
});
