import request from 'supertest';
import { addMember, bearer } from '../support/catalog';
import {
  freshLogin,
  freshProduct,
  idsFor,
  keyWith,
  listFindings,
  Product,
  seedFindings,
  uuid,
  freshMember,
} from '../support/findings-seed';
import { loginAdmin, Login } from '../support/sessions';
import { createProduct } from '../support/catalog';
import { startTestApp, TestApp } from '../support/test-app';

let t: TestApp;
let admin: Login;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
});
afterAll(() => t.close());

describe('List findings - /api/v1/findings (GET)', () => {
  describe('filters', () => {
    let product: Product;
    let ids: string[];
    beforeAll(async () => {
      product = await freshProduct(t, admin);
      ids = await seedFindings(t, product, [
        {
          severity: 'CRITICAL',
          status: 'new',
          scanner: 'semgrep',
          host: 'db.prod.local',
          tags: ['pci'],
        },
        {
          severity: 'HIGH',
          status: 'confirmed',
          scanner: 'trivy',
          file_path: 'src/app/main.ts',
          cve: 'CVE-2024-1234',
        },
        {
          severity: 'LOW',
          status: 'fixed',
          scanner: 'semgrep',
          report_tags: ['pci'],
          title: 'Hardcoded password',
        },
        {
          severity: 'INFO',
          status: 'risk_accepted',
          scanner: 'zap',
          enrichment_tags: ['internet-facing'],
          created_at: '2024-01-01T00:00:00Z',
          last_seen_at: '2024-02-01T00:00:00Z',
        },
      ]);
    });
    const get = (query: Record<string, string>) => idsFor(t, bearer(admin), product, query);
    const pick = (...k: number[]) => k.map((i) => ids[i]).sort();

    it('status (comma list) and status_group (attention, open, closed)', async () => {
      expect(await get({ status: 'new,fixed' })).toEqual(pick(0, 2));
      expect(await get({ status_group: 'attention' })).toEqual(pick(0, 1));
      expect(await get({ status_group: 'open' })).toEqual(pick(0, 1, 3));
      expect(await get({ status_group: 'closed' })).toEqual(pick(2));
    });

    it('severity (any case), scanner, cve, host and file_path substrings, search text', async () => {
      expect(await get({ severity: 'critical,HIGH' })).toEqual(pick(0, 1));
      expect(await get({ scanner: 'semgrep' })).toEqual(pick(0, 2));
      expect(await get({ cve: 'cve-2024-1234' })).toEqual(pick(1));
      expect(await get({ host: 'PROD' })).toEqual(pick(0));
      expect(await get({ file_path: 'app/' })).toEqual(pick(1));
      expect(await get({ search: 'hardcoded' })).toEqual(pick(2));
    });

    it('tags match manual, report and enrichment tags', async () => {
      expect(await get({ tags: 'pci' })).toEqual(pick(0, 2));
      expect(await get({ tags: 'internet-facing,nothing' })).toEqual(pick(3));
    });

    it('created and last-seen ranges; filters combine with q by AND', async () => {
      expect(await get({ created_to: '2024-06-01T00:00:00Z' })).toEqual(pick(3));
      expect(await get({ last_seen_from: '2024-03-01T00:00:00Z' })).toEqual(pick(0, 1, 2));
      expect(await get({ scanner: 'semgrep', q: 'severity:low' })).toEqual(pick(2));
    });

    it('refuses unknown enum values and malformed ids with 400 naming the field', async () => {
      for (const [query, field] of [
        [{ status: 'open' }, 'status'],
        [{ severity: 'urgent' }, 'severity'],
        [{ project_id: 'nope' }, 'project_id'],
        [{ status_group: 'later' }, 'status_group'],
        [{ limit: '501' }, 'limit'],
      ] as const) {
        const res = await request(t.url)
          .get('/api/v1/findings')
          .query(query)
          .set('Authorization', `Bearer ${admin.token}`)
          .expect(400);
        expect(res.body.code).toBe('validation_failed');
        expect(res.body.fields[0].field).toBe(field);
      }
    });
  });

  describe('sorting and keyset pagination', () => {
    let product: Product;
    let ids: string[];
    beforeAll(async () => {
      product = await freshProduct(t, admin);
      // 23 findings, many ties on every sort key (3 timestamps, 5 severities, 3 statuses).
      const severities = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];
      const statuses = ['new', 'confirmed', 'fixed'];
      const times = [
        '2025-01-01T00:00:00.000001Z',
        '2025-01-01T00:00:00.000002Z',
        '2025-01-02T00:00:00Z',
      ];
      ids = await seedFindings(
        t,
        product,
        Array.from({ length: 23 }, (_, i) => ({
          severity: severities[i % 5],
          status: statuses[i % 3],
          created_at: times[i % 3],
          last_seen_at: times[(i + 1) % 3],
        })),
      );
    });

    async function walk(sort: string, order: string, limit: number): Promise<string[]> {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 30; pages++) {
        const query: Record<string, string | number> = {
          product_id: product.id,
          sort,
          order,
          limit,
        };
        if (cursor) query['cursor'] = cursor;
        const page = await listFindings(t, bearer(admin), query);
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...page.items.map((f) => f.id));
        cursor = page.next_cursor;
        if (!cursor) break;
      }
      return seen;
    }

    it.each([
      ['severity', 'desc'],
      ['severity', 'asc'],
      ['created_at', 'desc'],
      ['last_seen_at', 'asc'],
      ['status', 'asc'],
      ['id', 'desc'],
    ])('walks every finding exactly once by %s %s, pages of 4', async (sort, order) => {
      const all = await walk(sort, order, 4);
      expect(all).toHaveLength(23);
      expect(new Set(all).size).toBe(23);
      expect([...all].sort()).toEqual([...ids].sort());
      const single = await listFindings(t, bearer(admin), {
        product_id: product.id,
        sort,
        order,
        limit: 500,
      });
      expect(single.items.map((f) => f.id)).toEqual(all);
      expect(single.next_cursor).toBeNull();
    });

    it('orders severity by rank (CRITICAL first when desc) and ties by id', async () => {
      const page = await listFindings(t, bearer(admin), {
        product_id: product.id,
        sort: 'severity',
        order: 'desc',
        limit: 500,
      });
      const rank = { CRITICAL: 5, HIGH: 4, MEDIUM: 3, LOW: 2, INFO: 1 } as Record<string, number>;
      const keys = page.items.map((f) => [rank[String(f['severity'])], f.id] as const);
      const sorted = [...keys].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : -1));
      expect(keys).toEqual(sorted);
      expect(page.items[0]['severity']).toBe('CRITICAL');
    });

    it('a cursor from another sort or a forged one is a 400', async () => {
      const page = await listFindings(t, bearer(admin), {
        product_id: product.id,
        sort: 'severity',
        limit: 2,
      });
      for (const cursor of [
        page.next_cursor ?? '',
        'garbage',
        Buffer.from('{"s":"id"}').toString('base64url'),
      ]) {
        const res = await request(t.url)
          .get('/api/v1/findings')
          .query({ product_id: product.id, sort: 'created_at', cursor })
          .set('Authorization', `Bearer ${admin.token}`)
          .expect(400);
        expect(res.body.code).toBe('finding_cursor_invalid');
      }
    });
  });

  describe('visibility', () => {
    let a1: Product;
    let a2: Product;
    let b1: Product;
    let a1Ids: string[];
    let a2Ids: string[];
    let b1Ids: string[];
    beforeAll(async () => {
      a1 = await freshProduct(t, admin);
      a2 = await createProduct(t, bearer(admin), a1.project_id);
      b1 = await freshProduct(t, admin);
      a1Ids = await seedFindings(t, a1, [{ title: 'a1-x' }, { title: 'a1-y' }]);
      a2Ids = await seedFindings(t, a2, [{ title: 'a2-x' }]);
      b1Ids = await seedFindings(t, b1, [{ title: 'b1-x' }]);
    });
    const mine = async (auth: ReturnType<typeof bearer>): Promise<string[]> => {
      const projects = `${a1.project_id},${b1.project_id}`;
      const page = await listFindings(t, auth, { project_id: projects, limit: 500 });
      return page.items.map((f) => f.id).sort();
    };

    it('members see their projects, non-members nothing, admins everything', async () => {
      const member = await freshMember(t, admin, a1.project_id, 'viewer');
      expect(await mine(bearer(member))).toEqual([...a1Ids, ...a2Ids].sort());
      // A member of another project only: nothing of A or B.
      const elsewhere = await freshLogin(t, admin);
      const other = await freshProduct(t, admin);
      await addMember(t, bearer(admin), other.project_id, elsewhere.userId, 'admin');
      expect(await mine(bearer(elsewhere))).toEqual([]);
      // A user without any membership holds read_findings nowhere: 403 from the route guard.
      const stranger = await freshLogin(t, admin);
      const res = await bearer(stranger).apply(request(t.url).get('/api/v1/findings')).expect(403);
      expect(res.body.code).toBe('permission_denied');
      expect(await mine(bearer(admin))).toEqual([...a1Ids, ...a2Ids, ...b1Ids].sort());
    });

    it('keys see what their read_findings grant covers: project, product or global', async () => {
      const project = await keyWith(t, admin, [
        { permission: 'read_findings', level: 'project', product: a1 },
      ]);
      expect(await mine(project)).toEqual([...a1Ids, ...a2Ids].sort());
      const product = await keyWith(t, admin, [
        { permission: 'read_findings', level: 'product', product: a1 },
      ]);
      expect(await mine(product)).toEqual([...a1Ids].sort());
      const global = await keyWith(t, admin, [{ permission: 'read_findings', level: 'global' }]);
      expect(await mine(global)).toEqual([...a1Ids, ...a2Ids, ...b1Ids].sort());
    });

    it('an inaccessible project and a non-existent one give the same empty answer', async () => {
      const member = await freshMember(t, admin, a1.project_id, 'viewer');
      const hidden = await listFindings(t, bearer(member), { project_id: b1.project_id });
      const missing = await listFindings(t, bearer(member), { project_id: uuid() });
      expect(hidden).toEqual({ items: [], next_cursor: null });
      expect(missing).toEqual(hidden);
      const viaQuery = await listFindings(t, bearer(member), { q: `project:"${b1.project_id}"` });
      expect(viaQuery.items.filter((f) => f['project_id'] === b1.project_id)).toEqual([]);
    });

    it('keys without read_findings get 403; no credentials 401', async () => {
      const key = await keyWith(t, admin, [{ permission: 'upload_report', level: 'global' }]);
      await key.apply(request(t.url).get('/api/v1/findings')).expect(403);
      await request(t.url).get('/api/v1/findings').expect(401);
    });
  });
});
