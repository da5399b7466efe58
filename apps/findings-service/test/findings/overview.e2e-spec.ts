import Redis from 'ioredis';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Auth, bearer } from '../support/catalog';
import {
  freshMember,
  freshProduct,
  keyWith,
  listFindings,
  Product,
  seedFindings,
  seedReport,
  startWithProduct,
} from '../support/findings-seed';
import { Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

/**
 * The list's selection as a whole (issue 25): its total, its groups by rule or file, the
 * filters that open a group or a report's findings, and the streamed CSV export.
 */
let t: TestApp;
let admin: Login;
let product: Product;
let ids: string[];

const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;
const getData = async (auth: Auth, path: string, query: Record<string, string | number>) =>
  (await auth.apply(request(t.url).get(path).query(query)).expect(200)).body.data;

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
  ids = await seedFindings(t, product, [
    { rule_id: 'js/sql-injection', severity: 'HIGH', file_path: 'src/db.ts' },
    { rule_id: 'js/sql-injection', severity: 'HIGH', file_path: 'src/db.ts' },
    { rule_id: 'js/sql-injection', severity: 'CRITICAL', file_path: 'src/api.ts' },
    { rule_id: 'cookie-secure', severity: 'MEDIUM', file_path: 'src/api.ts' },
    { rule_id: 'cookie-secure', severity: 'LOW', file_path: 'src/web.ts' },
    { rule_id: 'open-port', severity: 'INFO', host: 'db.internal' },
  ]);
  await sql(
    `UPDATE findings SET rule_title = CASE WHEN id = $2 THEN 'Old title' ELSE 'Database query built from user-controlled sources' END
      WHERE id = ANY($1::uuid[]) AND rule_id = 'js/sql-injection'`,
    [ids, ids[2]],
  );
});
afterAll(() => t.close());

describe('Finding count - /api/v1/findings/count (GET)', () => {
  it('counts the selection exactly with the filters and q of the list', async () => {
    const path = '/api/v1/findings/count';
    expect(await getData(bearer(admin), path, { product_id: product.id })).toEqual({
      count: 6,
      exact: true,
    });
    expect(
      await getData(bearer(admin), path, { product_id: product.id, severity: 'high,critical' }),
    ).toEqual({ count: 3, exact: true });
    expect(
      await getData(bearer(admin), path, { product_id: product.id, q: 'severity:low|info' }),
    ).toEqual({ count: 2, exact: true });
    const bad = await bearer(admin)
      .apply(request(t.url).get(path).query({ q: 'severity:(' }))
      .expect(400);
    expect(bad.body.code).toBe('query_syntax_error');
    // Visibility: a member of another project counts nothing here.
    const other = await freshMember(t, admin, (await freshProduct(t, admin)).project_id, 'viewer');
    expect(await getData(bearer(other), path, { product_id: product.id })).toEqual({
      count: 0,
      exact: true,
    });
  });

  it('above 10 000 says so: exact false and never below 10 001', async () => {
    const big = await freshProduct(t, admin);
    await seedFindings(
      t,
      big,
      Array.from({ length: 10_050 }, () => ({})),
    );
    await sql('ANALYZE findings');
    const res = await getData(bearer(admin), '/api/v1/findings/count', { product_id: big.id });
    expect(res.exact).toBe(false);
    expect(res.count).toBeGreaterThanOrEqual(10_001);
    // The export of the same selection streams every row once, in batches.
    const csv = await bearer(admin)
      .apply(request(t.url).get('/api/v1/findings/export.csv').query({ product_id: big.id }))
      .expect(200);
    const lines = csv.text.split('\r\n').filter((l) => l.length > 0);
    expect(lines).toHaveLength(10_051);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(10_050);
  }, 120_000);
});

describe('Finding groups - /api/v1/findings/groups (GET)', () => {
  it('folds by rule with counts per severity and the most common title, count desc', async () => {
    const page = await getData(bearer(admin), '/api/v1/findings/groups', {
      by: 'rule',
      product_id: product.id,
    });
    expect(page).toEqual({
      by: 'rule',
      items: [
        {
          key: 'js/sql-injection',
          title: 'Database query built from user-controlled sources',
          count: 3,
          by_severity: { CRITICAL: 1, HIGH: 2, MEDIUM: 0, LOW: 0, INFO: 0 },
        },
        {
          key: 'cookie-secure',
          title: 'cookie-secure',
          count: 2,
          by_severity: { CRITICAL: 0, HIGH: 0, MEDIUM: 1, LOW: 1, INFO: 0 },
        },
        {
          key: 'open-port',
          title: 'open-port',
          count: 1,
          by_severity: { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 1 },
        },
      ],
      next_cursor: null,
    });
    // A group's findings: rule_id with the same filters.
    const members = await listFindings(t, bearer(admin), {
      product_id: product.id,
      rule_id: 'js/sql-injection',
    });
    expect(members.items.map((f) => f.id).sort()).toEqual(ids.slice(0, 3).sort());
  });

  it('folds by file (findings without a path in no group) and pages with the cursor', async () => {
    const first = await getData(bearer(admin), '/api/v1/findings/groups', {
      by: 'file',
      product_id: product.id,
      limit: 2,
    });
    expect(first.items.map((g: { key: string; count: number }) => [g.key, g.count])).toEqual([
      ['src/api.ts', 2],
      ['src/db.ts', 2],
    ]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await getData(bearer(admin), '/api/v1/findings/groups', {
      by: 'file',
      product_id: product.id,
      limit: 2,
      cursor: first.next_cursor,
    });
    expect(second.items.map((g: { key: string }) => g.key)).toEqual(['src/web.ts']);
    expect(second.next_cursor).toBeNull();
    const wrong = await bearer(admin)
      .apply(
        request(t.url)
          .get('/api/v1/findings/groups')
          .query({ by: 'rule', cursor: first.next_cursor }),
      )
      .expect(400);
    expect(wrong.body.code).toBe('finding_cursor_invalid');
    const noBy = await bearer(admin)
      .apply(request(t.url).get('/api/v1/findings/groups'))
      .expect(400);
    expect(noBy.body).toMatchObject({ code: 'validation_failed' });
    expect(noBy.body.fields.map((f: { field: string }) => f.field)).toEqual(['by']);
    const exact = await listFindings(t, bearer(admin), {
      product_id: product.id,
      file_path_exact: 'src/api.ts',
    });
    expect(exact.items.map((f) => f.id).sort()).toEqual([ids[2], ids[3]].sort());
  });
});

describe("A report's findings - /api/v1/findings?first_report_id|last_report_id (GET)", () => {
  it('lists what a report created, and what it saw last', async () => {
    const first = await seedReport(t, product);
    const second = await seedReport(t, product);
    await sql(
      `UPDATE findings SET first_report_id = $2, last_report_id = CASE WHEN id = $3 THEN $4::uuid ELSE $2 END
        WHERE id = ANY($1::uuid[])`,
      [ids.slice(0, 2), first.id, ids[0], second.id],
    );
    const created = await listFindings(t, bearer(admin), { first_report_id: first.id });
    expect(created.items.map((f) => f.id).sort()).toEqual(ids.slice(0, 2).sort());
    const lastSeen = await listFindings(t, bearer(admin), { last_report_id: first.id });
    expect(lastSeen.items.map((f) => f.id)).toEqual([ids[1]]);
    const bad = await bearer(admin)
      .apply(request(t.url).get('/api/v1/findings').query({ first_report_id: 'nope' }))
      .expect(400);
    expect(bad.body.fields.map((f: { field: string }) => f.field)).toEqual(['first_report_id']);
  });
});

describe('CSV export - /api/v1/findings/export.csv (GET)', () => {
  it('streams the selection as a spreadsheet-safe CSV attachment', async () => {
    const [tricky] = await seedFindings(t, product, [
      {
        rule_id: 'xss',
        title: '=HYPERLINK("http://evil","click")',
        file_path: 'src/a,b.ts',
        cwe: ['CWE-79', 'CWE-80'],
        tags: ['pci', 'web'],
      },
    ]);
    await sql(`UPDATE findings SET assignee_id = $2, rule_title = 'Отражённый XSS' WHERE id = $1`, [
      tricky,
      admin.userId,
    ]);
    const res = await bearer(admin)
      .apply(
        request(t.url)
          .get('/api/v1/findings/export.csv')
          .query({ product_id: product.id, rule_id: 'xss' })
          .buffer(true),
      )
      .expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="findings.csv"');
    expect(
      res.text.startsWith('\uFEFFid,project,product,severity,status,rule_id,rule_title,'),
    ).toBe(true);
    const lines = res.text.slice(1).split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    const header = lines[0]!.split(',');
    expect(header).toHaveLength(31);
    const row = lines[1]!;
    expect(row.startsWith(`${tricky},`)).toBe(true);
    expect(row).toContain(`,"'=HYPERLINK(""http://evil"",""click"")",`);
    expect(row).toContain(',Отражённый XSS,');
    expect(row).toContain(',"src/a,b.ts",');
    expect(row).toContain(',CWE-79;CWE-80,');
    expect(row).toContain(',pci;web,');
    const [admin_] = await sql(`SELECT email FROM users WHERE id = $1`, [admin.userId]);
    expect(row).toContain(`,${String(admin_!['email'])},`);
  });

  it('refuses keys, and answers a bad query with the JSON error, never a CSV', async () => {
    const key = await keyWith(t, admin, [{ permission: 'read_findings', level: 'global' }]);
    const byKey = await key.apply(request(t.url).get('/api/v1/findings/export.csv')).expect(403);
    expect(byKey.body.code).toBe('access_denied');
    const bad = await bearer(admin)
      .apply(request(t.url).get('/api/v1/findings/export.csv').query({ q: 'severity:(' }))
      .expect(400);
    expect(bad.headers['content-type']).toMatch(/application\/json/);
    expect(bad.body.code).toBe('query_syntax_error');
    const badFilter = await bearer(admin)
      .apply(request(t.url).get('/api/v1/findings/export.csv').query({ severity: 'huge' }))
      .expect(400);
    expect(badFilter.body.code).toBe('validation_failed');
  });
});

describe('Export links - /api/v1/findings/export-links (POST)', () => {
  const makeLink = (auth: Auth, query: Record<string, string>) =>
    auth.apply(request(t.url).post('/api/v1/findings/export-links').query(query));
  const open = (url: string) => request(t.url).get(url).buffer(true);
  const csvIds = (text: string) =>
    text
      .slice(1)
      .split('\r\n')
      .slice(1)
      .filter((l) => l.length > 0)
      .map((l) => l.split(',')[0]);

  it('gives a link that downloads the same selection once, without a header, within 60 s', async () => {
    const before = Date.now();
    const made = await makeLink(bearer(admin), {
      product_id: product.id,
      rule_id: 'js/sql-injection',
    }).expect(201);
    const { url, expires_at } = made.body.data as { url: string; expires_at: string };
    expect(url).toMatch(/^\/api\/v1\/findings\/export\.csv\?/);
    const params = new URL(url, t.url).searchParams;
    expect(params.get('product_id')).toBe(product.id);
    expect(params.get('rule_id')).toBe('js/sql-injection');
    expect(params.get('download_token')).toMatch(/^dl_[\w-]{43}$/);
    const ttl = Date.parse(expires_at) - before;
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(61_000);

    const csv = await open(url).expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="findings.csv"');
    expect(csvIds(csv.text).sort()).toEqual(ids.slice(0, 3).sort());

    const again = await open(url).expect(401);
    expect(again.headers['content-type']).toMatch(/application\/json/);
    expect(again.body.code).toBe('download_link_invalid');
    // Only its hash was stored: nothing in Redis names the token.
    const redis = new Redis(t.config.redisUrl);
    try {
      const keys = await redis.keys('findsvc:download-link:*');
      expect(keys.join(' ')).not.toContain(params.get('download_token'));
    } finally {
      redis.disconnect();
    }
  });

  it('a link opens only export.csv; elsewhere it is no credential and is not spent', async () => {
    const made = await makeLink(bearer(admin), { product_id: product.id }).expect(201);
    const token = new URL(made.body.data.url, t.url).searchParams.get('download_token')!;
    const list = await request(t.url)
      .get('/api/v1/findings')
      .query({ product_id: product.id, download_token: token })
      .expect(401);
    expect(list.body.code).toBe('authentication_required');
    const forged = await open(
      `/api/v1/findings/export.csv?product_id=${product.id}&download_token=dl_${'A'.repeat(43)}`,
    ).expect(401);
    expect(forged.body.code).toBe('download_link_invalid');
    const rows = csvIds((await open(made.body.data.url).expect(200)).text);
    expect(rows).toEqual(expect.arrayContaining(ids));
  });

  it('is for users only, checks the selection first, and re-checks the user when used', async () => {
    const key = await keyWith(t, admin, [{ permission: 'read_findings', level: 'global' }]);
    expect((await makeLink(key, {}).expect(403)).body.code).toBe('access_denied');
    expect((await makeLink(bearer(admin), { q: 'severity:(' }).expect(400)).body.code).toBe(
      'query_syntax_error',
    );
    expect((await makeLink(bearer(admin), { severity: 'huge' }).expect(400)).body.code).toBe(
      'validation_failed',
    );

    // A member sees their project's findings through the link, never another project's.
    const other = await freshProduct(t, admin);
    const [elsewhere] = await seedFindings(t, other, [{ rule_id: 'elsewhere' }]);
    const member = await freshMember(t, admin, product.project_id, 'viewer');
    const mine = await makeLink(bearer(member), {}).expect(201);
    const rows = csvIds((await open(mine.body.data.url).expect(200)).text);
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows).not.toContain(elsewhere);

    // Disabled after the link was made: the link stops working with the user.
    const late = await makeLink(bearer(member), {}).expect(201);
    await bearer(admin)
      .apply(
        request(t.url).put(`/api/v1/admin/users/${member.userId}/enabled`).send({ enabled: false }),
      )
      .expect(200);
    expect((await open(late.body.data.url).expect(401)).body.code).toBe('download_link_invalid');
  });
});
