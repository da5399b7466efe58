import request from 'supertest';
import { addMember, bearer } from '../support/catalog';
import {
  freshLogin,
  freshProduct,
  keyWith,
  Product,
  seedFindings,
  uuid,
  startWithProduct,
} from '../support/findings-seed';
import { Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

let t: TestApp;
let admin: Login;
let product: Product;
let id: string;

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
  [id] = await seedFindings(t, product, [
    {
      title: 'XSS',
      severity: 'HIGH',
      file_path: 'src/a.ts',
      cwe: ['CWE-79'],
      tags: ['pci'],
      report_tags: ['owasp'],
    },
  ]);
});
afterAll(() => t.close());

describe('Get finding - /api/v1/findings/{id} (GET)', () => {
  it('returns the finding with location, tags of each origin and names', async () => {
    const res = await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${id}`))
      .expect(200);
    expect(res.body.data).toMatchObject({
      id,
      title: 'XSS',
      severity: 'HIGH',
      status: 'new',
      project_id: product.project_id,
      product_id: product.id,
      product_name: product.name,
      location: { file_path: 'src/a.ts' },
      cwe: ['CWE-79'],
      tags: ['pci'],
      report_tags: ['owasp'],
      enrichment_tags: [],
    });
  });

  it('invisible and missing findings are both 404; a malformed id 400', async () => {
    const elsewhere = await freshLogin(t, admin);
    const other = await freshProduct(t, admin);
    await addMember(t, bearer(admin), other.project_id, elsewhere.userId, 'viewer');
    const hidden = await bearer(elsewhere)
      .apply(request(t.url).get(`/api/v1/findings/${id}`))
      .expect(404);
    const missing = await bearer(elsewhere)
      .apply(request(t.url).get(`/api/v1/findings/${uuid()}`))
      .expect(404);
    expect(hidden.body).toEqual(missing.body);
    await bearer(admin).apply(request(t.url).get('/api/v1/findings/not-a-uuid')).expect(404);
  });

  it('keys read with read_findings on the product', async () => {
    const key = await keyWith(t, admin, [
      { permission: 'read_findings', level: 'product', product },
    ]);
    await key.apply(request(t.url).get(`/api/v1/findings/${id}`)).expect(200);
  });
});

describe('List finding actions - /api/v1/findings/{id}/actions (GET)', () => {
  it('lists entries oldest first, pages with after, and is hidden like the finding', async () => {
    const [fid] = await seedFindings(t, product, [{}]);
    for (const status of ['confirmed', 'in_progress', 'fixed']) {
      await bearer(admin)
        .apply(request(t.url).patch(`/api/v1/findings/${fid}`).send({ status }))
        .expect(200);
    }
    const all = await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${fid}/actions`))
      .expect(200);
    const entries = all.body.data as { id: string; to: { status: string }; at: string }[];
    expect(entries.map((e) => e.to.status)).toEqual(['confirmed', 'in_progress', 'fixed']);
    const page = await bearer(admin)
      .apply(
        request(t.url)
          .get(`/api/v1/findings/${fid}/actions`)
          .query({ after: entries[0].id, limit: 1 }),
      )
      .expect(200);
    expect(page.body.data.map((e: { id: string }) => e.id)).toEqual([entries[1].id]);
    const stranger = await keyWith(t, admin, [
      { permission: 'read_findings', level: 'product', product: await freshProduct(t, admin) },
    ]);
    await stranger.apply(request(t.url).get(`/api/v1/findings/${fid}/actions`)).expect(404);
  });
});
