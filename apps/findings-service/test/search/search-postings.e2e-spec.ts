import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { FindingCursor } from '../../src/modules/findings/list/finding-cursor';
import type { FindingFilters } from '../../src/modules/findings/list/finding-filters';
import { findingListSql } from '../../src/modules/findings/list/finding-list.sql';
import { parseQuery, type QueryNode } from '../../src/modules/findings/query';
import { FINDINGS_QUERY_CATALOG } from '../../src/modules/findings/list/finding-query-catalog';
import { FindingSearchIndexer } from '../../src/modules/findings/search/finding-search-indexer.service';
import { FindingSearchPlanner } from '../../src/modules/findings/search/finding-search-planner';
import { FindingSearchRepository } from '../../src/modules/findings/search/finding-search.repository';
import type { VisibleScope } from '../../src/modules/projects/visibility.service';
import { bearer, type Auth } from '../support/catalog';
import { freshProduct, seedFindings, type Product } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { seededRandom } from '../support/seeded-random';

/**
 * Ordered postings (migration 1795608040000, finding-search-driver.sql.ts): a page in
 * `created_at` order of a term through the word index walks the term's candidates in page order
 * and stops when full. Property-style, on generated data in three products of two projects:
 * for many terms, both orders, several page sizes, scopes (everything, one project, one
 * product, nothing), filters, query terms and the default hidden states, paging through every
 * page with each path's own cursors gives EXACTLY the pages of the plain condition (the
 * documented result) — after indexing, with findings past the frontier, and after status and
 * severity edits, text edits (trigger), deletions, merges and suppression.
 */
let t: TestApp;
let adminLogin: Login;
let admin: Auth;
let ds: DataSource;
let indexer: FindingSearchIndexer;
let products: Product[];
const all: string[] = [];

type Row = Record<string, unknown>;
const sql = (text: string, values: unknown[] = []) => ds.query(text, values) as Promise<Row[]>;

const { rnd, pick } = seededRandom(34_44);

const WORDS = [
  'rule-217',
  'Rule-2170',
  'src/module-17/file-3.ts',
  'module-17/file-30',
  'lib/vendor/pkg-7/index.js',
  'Crème',
  'straße',
  '100%',
  'DES_CBC',
  'injection',
  'finding',
  'a_b%c',
];
const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
const STATUSES = ['new', 'confirmed', 'in_progress', 'false_positive', 'fixed'] as const;
const text = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(pick([' ', '\n']));
/**
 * Few distinct instants: many findings share a `created_at` (ties broken by id). From `base`:
 * in the past for the first findings, in the future for those that must stay past the frontier
 * (a finding's `created_at` is its transaction's start, so the indexer's bound never passes it).
 */
const PAST = Date.UTC(2026, 0, 1);
const FUTURE = Date.now() + 86_400_000;
let base = PAST;
const instant = () => new Date(base + 86_400_000 * Math.floor(rnd() * 6)).toISOString();

function generated(n: number) {
  return Array.from({ length: n }, () => ({
    title: text(1 + Math.floor(rnd() * 3)),
    description: text(Math.floor(rnd() * 4)),
    rule_id: pick(['rule-217', 'rule-2171', 'Rule-9', 'x']),
    severity: pick(SEVERITIES),
    status: pick(STATUSES),
    created_at: instant(),
  }));
}

const TERMS = ['rule-217', 'module-17/file-3', 'MODULE-17/FILE-3', 'crème', 'des_cbc', '100%'];
const TERMS_NEW = ['zebracorn', 'rule-2171', 'pkg-7/index', 'straße'];

interface Case {
  scope: VisibleScope;
  filters: FindingFilters;
  query?: QueryNode;
}

function cases(term: string): Case[] {
  const everything = { all: true, projectIds: [], productIds: [] } as never as VisibleScope;
  const projectOf = { all: false, projectIds: [products[0].project_id], productIds: [] };
  const productOf = { all: false, projectIds: [], productIds: [products[2].id] };
  const nothing = { all: false, projectIds: [], productIds: [] };
  const q = (s: string) => parseQuery(s, FINDINGS_QUERY_CATALOG);
  return [
    { scope: everything, filters: { search: term } },
    { scope: projectOf as VisibleScope, filters: { search: term } },
    { scope: productOf as VisibleScope, filters: { search: term } },
    { scope: nothing as VisibleScope, filters: { search: term } },
    { scope: everything, filters: { search: term, severities: ['CRITICAL', 'HIGH'] } },
    { scope: everything, filters: { search: term, suppression: 'include' } },
    { scope: everything, filters: { search: term, suppression: 'only' } },
    { scope: everything, filters: { search: term, statusGroup: 'attention' as never } },
    { scope: everything, filters: {}, query: q(`"${term.replace(/"/g, '')}" severity:medium`) },
    { scope: everything, filters: { search: term }, query: q('finding OR status:fixed') },
  ];
}

/** Every page of the list with this path's own cursors (order kept). */
async function walk(c: Case, order: 'asc' | 'desc', limit: number, term: string, words: boolean) {
  const out: string[] = [];
  let cursor: FindingCursor | undefined;
  for (let page = 0; page < 200; page++) {
    const { sql: statement, params } = findingListSql({
      ...c,
      indexedSearch: words ? new Map([[term, { words: true }]]) : undefined,
      sort: 'created_at',
      order,
      cursor,
      fetch: limit + 1,
    });
    if (words) expect(statement).toContain('finding_search_posting fp');
    else expect(statement).not.toContain('finding_search');
    const rows = await sql(statement, params);
    const shown = rows.slice(0, limit);
    out.push(...shown.map((r) => String(r['id'])));
    if (rows.length <= limit) return out;
    const last = shown[shown.length - 1];
    cursor = {
      sort: 'created_at',
      order,
      value: String(last['sort_value']),
      id: String(last['id']),
    } as FindingCursor;
  }
  throw new Error('too many pages');
}

/** Returns how many findings all the comparisons saw (so a test cannot pass on empty lists). */
async function expectSamePages(terms: readonly string[]): Promise<number> {
  let seen = 0;
  for (const term of terms) {
    for (const [i, c] of cases(term).entries()) {
      const order = i % 2 === 0 ? 'desc' : 'asc';
      const limit = [2, 7, 50, 13][i % 4];
      const want = await walk(c, order, limit, term, false);
      const got = await walk(c, order, limit, term, true);
      expect({ term, case: i, order, limit, ids: got }).toEqual({
        term,
        case: i,
        order,
        limit,
        ids: want,
      });
      seen += want.length;
    }
  }
  return seen;
}

beforeAll(async () => {
  t = await startTestApp();
  adminLogin = await loginAdmin(t);
  admin = bearer(adminLogin);
  ds = t.app.get(DataSource);
  indexer = new FindingSearchIndexer(new FindingSearchRepository(ds));
  const first = await freshProduct(t, adminLogin);
  products = [
    first,
    await freshProduct(t, adminLogin, first.project_id),
    await freshProduct(t, adminLogin),
  ];
  for (const p of products) all.push(...(await seedFindings(t, p, generated(70))));
});
afterAll(async () => {
  await t?.close();
});

describe('Pages of a rare term walk its ordered postings', () => {
  it('the same pages as the plain condition, indexed and past the frontier', async () => {
    await indexer.catchUp();
    const postings = await sql(`SELECT count(*)::int AS n FROM finding_search_posting`);
    expect(Number(postings[0]['n'])).toBeGreaterThan(all.length);
    // Findings past the frontier (not indexed yet) are candidates too.
    base = FUTURE;
    all.push(...(await seedFindings(t, products[1], generated(25))));
    expect(await expectSamePages(TERMS)).toBeGreaterThan(200);
    await indexer.catchUp();
    expect(await expectSamePages(TERMS.slice(0, 2))).toBeGreaterThan(50);
  });

  it('the same pages after status and severity edits, text edits, deletions, merges and suppression', async () => {
    for (const [i, id] of all.entries()) {
      if (i % 5 === 0)
        await sql(`UPDATE findings SET status = $2, severity = $3 WHERE id = $1`, [
          id,
          pick(STATUSES),
          pick(SEVERITIES),
        ]);
      if (i % 6 === 1) {
        const column = pick(['title', 'description', 'rule_id'] as const);
        await sql(`UPDATE findings SET ${column} = $2 WHERE id = $1`, [
          id,
          `${text(2)} zebracorn-${i % 3} pkg-7/index`,
        ]);
      }
    }
    await sql(`DELETE FROM findings WHERE id = ANY($1::uuid[])`, [
      all.filter((_, i) => i % 9 === 4),
    ]);
    await sql(
      `UPDATE findings SET merged_into_id = $2, merged_at = now() WHERE id = ANY($1::uuid[])`,
      [all.filter((_, i) => i % 11 === 3), all[0]],
    );
    const rule = randomUUID();
    await sql(
      `INSERT INTO suppression_rules (id, project_id, name, query) VALUES ($1, $2, 'postings', 'x')`,
      [rule, products[0].project_id],
    );
    await sql(
      `UPDATE findings SET suppression_rule_id = $2, suppressed_at = now()
        WHERE id = ANY($1::uuid[]) AND project_id = $3`,
      [all.filter((_, i) => i % 4 === 2), rule, products[0].project_id],
    );
    expect(await expectSamePages([...TERMS, ...TERMS_NEW])).toBeGreaterThan(200);
    // A changed text's old postings are gone, its new ones there.
    const stale = await sql(
      `SELECT count(*)::int AS n FROM finding_search_posting fp
         JOIN findings f ON f.id = fp.finding_id
         JOIN finding_search fs ON fs.finding_id = f.id
        WHERE fp.word_id <> ALL(fs.word_ids) OR fp.created_at <> f.created_at`,
    );
    expect(stale[0]['n']).toBe(0);
    const missing = await sql(
      `SELECT count(*)::int AS n FROM finding_search fs JOIN findings f ON f.id = fs.finding_id,
         unnest(fs.word_ids) AS u(id)
        WHERE NOT EXISTS (SELECT 1 FROM finding_search_posting fp
          WHERE fp.word_id = u.id AND fp.created_at = f.created_at AND fp.finding_id = f.id)`,
    );
    expect(missing[0]['n']).toBe(0);
  });

  it('the API pages a rare term through the postings with the same items as the plain condition', async () => {
    const planner = t.app.get(FindingSearchPlanner);
    expect(
      (await planner.indexedTerms({ filters: { search: 'zebracorn' } }))?.get('zebracorn'),
    ).toEqual({
      words: true,
      frontier: expect.any(String),
    });
    for (const term of ['zebracorn', 'rule-217', 'pkg-7/index']) {
      const got: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await admin.apply(
          request(t.url)
            .get('/api/v1/findings')
            .query({
              search: term,
              limit: 4,
              suppression: 'include',
              ...(cursor ? { cursor } : {}),
            }),
        );
        expect(res.status).toBe(200);
        const data = (res.body as { data: { items: { id: string }[]; next_cursor: string | null } })
          .data;
        got.push(...data.items.map((f) => f.id));
        cursor = data.next_cursor;
      } while (cursor);
      const everything = { all: true, projectIds: [], productIds: [] } as never as VisibleScope;
      const want = await walk(
        { scope: everything, filters: { search: term, suppression: 'include' } },
        'desc',
        500,
        term,
        false,
      );
      expect(want.length).toBeGreaterThan(0);
      expect({ term, ids: got }).toEqual({ term, ids: want });
    }
  });
});
