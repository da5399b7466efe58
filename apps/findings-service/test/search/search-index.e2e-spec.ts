import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { FindingsMetrics } from '../../src/app/metrics/findings-metrics';
import { loadFindingsConfig } from '../../src/app/config/findings-config';
import { findingListSql } from '../../src/modules/findings/list/finding-list.sql';
import { containsPattern } from '../../src/modules/findings/query';
import { patternPieces, type PatternPiece } from '../../src/modules/findings/search/search-probe';
import { FindingSearchIndexer } from '../../src/modules/findings/search/finding-search-indexer.service';
import {
  FindingSearchPlanner,
  SEARCH_FRONTIER_TTL_MS,
} from '../../src/modules/findings/search/finding-search-planner';
import { FindingSearchRepository } from '../../src/modules/findings/search/finding-search.repository';
import { FRONTIER_SQL, frontierSql } from '../../src/modules/findings/search/finding-search.sql';
import { WorkerModule } from '../../src/worker/worker.module';
import { bearer, type Auth } from '../support/catalog';
import { freshProduct, seedFindings, type Product } from '../support/findings-seed';
import { ingestionEnv, workerEnv, type IngestionEnv } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { loginAdmin, type Login } from '../support/sessions';
import { codeResultsSarif } from '../support/synthetic-sarif';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Free-text search through the search table (issue 34 item 4,
 * docs/findings-service/findings-api.md#free-text-search) on real PostgreSQL: every answer is
 * compared with the documented semantics evaluated straight on `findings` (title, description
 * or rule id ILIKE '%term%'), before and after the indexer ran, after an upload, a text
 * change, a merge and a deletion. The worker's own search task is slowed to an hour so that
 * "not indexed yet" is a state the test controls.
 */
let t: TestApp;
let env: IngestionEnv;
let worker: INestApplicationContext;
let adminLogin: Login;
let admin: Auth;
let indexer: FindingSearchIndexer;

beforeAll(async () => {
  env = ingestionEnv();
  t = await startTestApp(env.vars);
  const config = loadFindingsConfig(workerEnv(t, env.vars), 'worker');
  worker = await NestFactory.createApplicationContext(
    WorkerModule.forRoot(config, new FindingsMetrics(), { searchIndexEveryMs: 3_600_000 }),
    { logger: false, abortOnError: false },
  );
  await worker.init();
  adminLogin = await loginAdmin(t);
  admin = bearer(adminLogin);
  indexer = worker.get(FindingSearchIndexer);
});
afterAll(async () => {
  await worker?.close();
  await t?.close();
  env?.cleanup();
});

type Row = Record<string, unknown>;
const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Row[]>;

/** The documented semantics, straight on the table: the ids a search must return. */
async function expected(p: Product, term: string): Promise<string[]> {
  const rows = await sql(
    `SELECT id FROM findings WHERE product_id = $1 AND merged_into_id IS NULL
       AND suppression_rule_id IS NULL
       AND (title ILIKE $2 ESCAPE '\\' OR description ILIKE $2 ESCAPE '\\' OR rule_id ILIKE $2 ESCAPE '\\')`,
    [p.id, `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`],
  );
  return rows.map((r) => String(r['id'])).sort();
}

async function listed(p: Product, query: Record<string, string>): Promise<string[]> {
  const res = await admin.apply(
    request(t.url)
      .get('/api/v1/findings')
      .query({ product_id: p.id, limit: 500, ...query }),
  );
  if (res.status !== 200) throw new Error(`${JSON.stringify(query)}: ${res.status} ${res.text}`);
  return (res.body as { data: { items: { id: string }[] } }).data.items.map((f) => f.id).sort();
}

/** `search=term` and `q="term"` (a quoted bare term) give exactly the documented result. */
async function expectSameAsDocumented(p: Product, terms: string[]): Promise<void> {
  for (const term of terms) {
    const want = await expected(p, term);
    expect({ term, ids: await listed(p, { search: term }) }).toEqual({ term, ids: want });
    // Quoted: a backslash or a double quote inside a phrase is query-language syntax.
    if (!/["\\]/.test(term)) {
      expect({ term, ids: await listed(p, { q: `"${term}"` }) }).toEqual({ term, ids: want });
    }
  }
}

const documents = async (ids: string[]) =>
  (
    await sql(
      `SELECT finding_id, document FROM finding_search WHERE finding_id = ANY($1::uuid[])`,
      [ids],
    )
  ).map((r) => String(r['document']));

const TEXTS = [
  {
    title: 'SQL Injection in login',
    description: 'User input reaches a query',
    rule_id: 'java/sqli',
  },
  {
    title: 'Hardcoded secret',
    description: 'AWS key AKIA1234 in src/config/prod.ts',
    rule_id: 'gitleaks-aws',
  },
  { title: 'Weak cipher', description: '100% of traffic uses DES_CBC', rule_id: 'crypto_weak' },
  {
    title: 'Path traversal',
    description: 'C:\\temp\\upload with ..\\ segments',
    rule_id: 'path-trav',
  },
  {
    title: 'Crème brûlée XSS',
    description: 'ÉCOLE reflected in /search?q=',
    rule_id: 'xss_reflected',
  },
  { title: 'abc', description: 'def ghi', rule_id: 'multi-line' },
];
const TERMS = [
  'injection',
  'INJECTION',
  'sqli',
  'src/config/prod',
  'akia1234',
  '100%',
  'des_cbc',
  '_weak',
  'C:\\temp',
  '..\\',
  'brûlée',
  'école',
  '/search?q=',
  'abc\ndef',
  'c def',
  'ghi multi',
  'nothing-like-this',
  'secret',
  'login',
  'trav',
  'weak cipher',
];

describe('Free-text search through the search table', () => {
  let p: Product;
  let ids: string[];
  beforeAll(async () => {
    p = await freshProduct(t, adminLogin);
    ids = await seedFindings(t, p, TEXTS);
  });

  it('before the indexer ran: the documented result, the findings not in the search table', async () => {
    expect(await documents(ids)).toEqual([]);
    await expectSameAsDocumented(p, TERMS);
  });

  it('after it ran: every finding has its document, the rare terms go through the index, same results', async () => {
    await indexer.catchUp();
    expect((await documents(ids)).sort()).toEqual(
      TEXTS.map((x) => `${x.title}\n${x.description}\n${x.rule_id}`).sort(),
    );
    const indexed = await t.app.get(FindingSearchPlanner).indexedTerms({
      filters: { search: 'injection' },
    });
    expect([...(indexed?.keys() ?? [])]).toEqual(['injection']);
    const { sql: statement } = findingListSql({
      scope: { all: true, projectIds: [], productIds: [] } as never,
      filters: { search: 'injection' },
      indexedSearch: indexed,
      sort: 'created_at',
      order: 'desc',
      fetch: 51,
    });
    expect(statement).toContain('finding_search');
    await expectSameAsDocumented(p, TERMS);
    // Bare terms with fields, OR and negation keep their meaning.
    expect(await listed(p, { q: 'injection OR secret' })).toEqual(
      [...(await expected(p, 'injection')), ...(await expected(p, 'secret'))].sort(),
    );
    const weak = new Set(await expected(p, 'weak'));
    const notWeak = (await expected(p, '')).filter((id) => !weak.has(id));
    expect(await listed(p, { q: '-weak' })).toEqual(notWeak.sort());
  });

  it('the index read for one piece of the term, the whole term checked: the same result for every piece', async () => {
    const run = async (term: string, probe: PatternPiece) => {
      const { sql: statement, params } = findingListSql({
        scope: { all: true, projectIds: [], productIds: [] } as never,
        filters: { productIds: [p.id], search: term },
        indexedSearch: new Map([[term, { probe }]]),
        sort: 'created_at',
        order: 'desc',
        fetch: 500,
      });
      expect(statement).toContain('substr(');
      return (await sql(statement, params)).map((r) => String(r['id'])).sort();
    };
    let probed = 0;
    for (const term of [...TERMS, 'sql injection in login', 'key akia1234 in src', 'des_cbc']) {
      for (const probe of patternPieces(containsPattern(term))) {
        expect({ term, probe: probe.text, ids: await run(term, probe) }).toEqual({
          term,
          probe: probe.text,
          ids: await expected(p, term),
        });
        probed++;
      }
    }
    expect(probed).toBeGreaterThan(20);
  });

  it('a term PostgreSQL cannot take (a NUL character) is a client error, never a 500', async () => {
    for (const query of [{ search: 'abc\u0000def' }, { q: 'abc\u0000def' }]) {
      const res = await admin.apply(
        request(t.url)
          .get('/api/v1/findings')
          .query({ product_id: p.id, ...query }),
      );
      expect({ query, status: res.status < 500 }).toEqual({ query, status: true });
    }
  });

  it('a finding whose text changes is found by its new text at once (trigger), not by the old', async () => {
    await sql(
      `UPDATE findings SET title = 'Renamed zebracorn', description = 'moved' WHERE id = $1`,
      [ids[0]],
    );
    expect(await documents([ids[0]])).toEqual(['Renamed zebracorn\nmoved\njava/sqli']);
    expect(await listed(p, { search: 'zebracorn' })).toEqual([ids[0]]);
    expect(await listed(p, { search: 'injection' })).toEqual([]);
    await expectSameAsDocumented(p, [...TERMS, 'zebracorn', 'renamed']);
  });

  it('a deleted finding takes its document with it', async () => {
    await sql(`DELETE FROM findings WHERE id = $1`, [ids[5]]);
    expect(await documents([ids[5]])).toEqual([]);
    await expectSameAsDocumented(p, ['abc', 'multi-line']);
  });

  it('findings created after the frontier are searched without the index until indexed', async () => {
    const [young] = await seedFindings(t, p, [
      { title: 'Quokka overflow', description: 'fresh', rule_id: 'c/overflow' },
    ]);
    expect(await documents([young])).toEqual([]);
    expect(await listed(p, { search: 'quokka' })).toEqual([young]);
    expect(await listed(p, { q: 'quokka' })).toEqual([young]);
    await indexer.catchUp();
    expect(await documents([young])).toHaveLength(1);
    expect(await listed(p, { search: 'quokka' })).toEqual([young]);
  });

  it('the statement carries the frontier read for the request as a value (PostgreSQL then estimates the findings past it), never a malformed one', async () => {
    await indexer.catchUp();
    const [{ frontier }] = (await sql(
      `SELECT to_char(frontier AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS frontier
         FROM finding_search_state WHERE id = 1`,
    )) as { frontier: string }[];
    // A planner of its own: the app's may reuse a read of the last second (the next test).
    const indexed = await new FindingSearchPlanner(t.app.get(DataSource)).indexedTerms({
      filters: { search: 'injection' },
    });
    expect(indexed?.get('injection')?.frontier).toBe(frontier);
    const build = (search: string, plans: typeof indexed, sort = 'severity') =>
      findingListSql({
        scope: { all: true, projectIds: [], productIds: [] } as never,
        filters: { search },
        indexedSearch: plans,
        sort,
        order: 'desc',
        fetch: 51,
      } as never).sql;
    // With the subquery PostgreSQL assumed a third of the table past the frontier and scanned
    // all of `findings` on every indexed search (560-610 ms at 1 M, docs/benchmarks.md).
    expect(build('injection', indexed)).toContain(`'${frontier}'::timestamptz`);
    expect(build('injection', indexed)).not.toContain('finding_search_state');
    expect(frontierSql(frontier)).toBe(`'${frontier}'::timestamptz`);
    for (const bad of ["2026-01-01T00:00:00.000000Z'; DROP TABLE findings; --", '', 'infinity'])
      expect(frontierSql(bad)).toBe(FRONTIER_SQL);
    expect(frontierSql(undefined)).toBe(FRONTIER_SQL);
    // An older value (read before the indexer moved on) only adds candidates: same results.
    const old = new Map(
      [...(indexed ?? [])].map(([k, v]) => [k, { ...v, frontier: '1970-01-01T00:00:00.000000Z' }]),
    );
    for (const sort of ['severity', 'created_at']) {
      const { sql: text, params } = findingListSql({
        scope: { all: true, projectIds: [], productIds: [] } as never,
        filters: { search: 'injection', productIds: [p.id] },
        indexedSearch: old,
        sort,
        order: 'desc',
        fetch: 500,
      } as never);
      expect(text).toContain("'1970-01-01T00:00:00.000000Z'::timestamptz");
      const rows = await sql(text, params);
      expect(rows.map((r) => String(r['id'])).sort()).toEqual(await expected(p, 'injection'));
    }
  });

  it('a frontier read is reused for a second: a search with it still finds what was indexed since, then the next read is the new frontier', async () => {
    const frontierNow = async () =>
      String(
        (
          await sql(
            `SELECT to_char(frontier AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS f
               FROM finding_search_state WHERE id = 1`,
          )
        )[0]['f'],
      );
    await indexer.catchUp();
    const planner = new FindingSearchPlanner(t.app.get(DataSource));
    const frontierOf = async (term: string) =>
      (await planner.indexedTerms({ filters: { search: term } }))?.get(term)?.frontier;
    const before = await frontierOf('injection');
    expect(before).toBe(await frontierNow());
    const [wombat] = await seedFindings(t, p, [
      { title: 'Wombat injection', description: 'indexed after the read', rule_id: 'c/wombat' },
    ]);
    await indexer.catchUp();
    expect(await documents([wombat])).toHaveLength(1);
    expect(await frontierNow()).not.toBe(before);
    // Within the second: the older value (a statement with it reads the findings past it too).
    expect(await frontierOf('injection')).toBe(before);
    const stale = new Map([['wombat', { frontier: before }]]);
    const { sql: text, params } = findingListSql({
      scope: { all: true, projectIds: [], productIds: [] } as never,
      filters: { search: 'wombat', productIds: [p.id] },
      indexedSearch: stale,
      sort: 'severity',
      order: 'desc',
      fetch: 500,
    } as never);
    expect((await sql(text, params)).map((r) => String(r['id']))).toEqual([wombat]);
    expect(await listed(p, { search: 'wombat' })).toEqual([wombat]);
    await new Promise((resolve) => setTimeout(resolve, SEARCH_FRONTIER_TTL_MS + 100));
    expect(await frontierOf('injection')).toBe(await frontierNow());
  });

  it('two indexers at once (a leader change) write each document once and never move the frontier back', async () => {
    await seedFindings(
      t,
      p,
      Array.from({ length: 30 }, (_, i) => ({ title: `Batch wombat ${i}`, rule_id: `r-${i}` })),
    );
    const second = new FindingSearchIndexer(new FindingSearchRepository(t.app.get(DataSource)));
    const before = String((await sql(`SELECT frontier FROM finding_search_state`))[0]['frontier']);
    await Promise.all([indexer.catchUp(20_000, 7), second.catchUp(20_000, 11)]);
    const rows = await sql(
      `SELECT count(*)::int AS n, count(DISTINCT s.finding_id)::int AS d FROM finding_search s
         JOIN findings f ON f.id = s.finding_id WHERE f.product_id = $1`,
      [p.id],
    );
    const total = await sql(`SELECT count(*)::int AS n FROM findings WHERE product_id = $1`, [
      p.id,
    ]);
    expect(rows[0]).toEqual({ n: total[0]['n'], d: total[0]['n'] });
    const after = String((await sql(`SELECT frontier FROM finding_search_state`))[0]['frontier']);
    expect(new Date(after).getTime()).toBeGreaterThanOrEqual(new Date(before).getTime());
    await expectSameAsDocumented(p, ['wombat', 'batch wombat 2', 'r-1']);
  });
});

describe('Free-text search after an upload, a merge and an unmerge', () => {
  it('an ingested finding is found right after its report completes, before and after indexing', async () => {
    const p = await freshProduct(t, adminLogin);
    const report = await uploadReport(
      t,
      admin,
      p.id,
      codeResultsSarif(
        [
          {
            rule: 'js/platypus-taint',
            file: 'src/a.ts',
            message: 'Tainted platypus flows into eval',
          },
          { rule: 'js/xss', file: 'src/b.ts', message: 'Reflected cross-site scripting' },
        ],
        { tool: 'SearchScanner', level: 'error' },
      ),
    );
    const done = await waitForReport(t, admin, report);
    if (done.status !== 'completed') throw new Error(`report: ${JSON.stringify(done)}`);
    const all = (await sql(`SELECT id, rule_id FROM findings WHERE product_id = $1`, [p.id])).map(
      (r) => String(r['id']),
    );
    expect(await documents(all)).toEqual([]);
    await expectSameAsDocumented(p, ['platypus', 'js/xss', 'cross-site', 'eval']);
    expect(await listed(p, { search: 'platypus' })).toHaveLength(1);
    // While a report is being ingested the worker's tick waits (at most its bound).
    await sql(`UPDATE reports SET status = 'pending' WHERE id = $1`, [report]);
    const start = Date.now();
    expect(await indexer.tick(start, 60_000)).toBe(false);
    expect(await indexer.tick(start + 59_000, 60_000)).toBe(false);
    expect(await documents(all)).toEqual([]);
    expect(await indexer.tick(start + 60_000, 60_000)).toBe(true);
    expect(await documents(all)).toHaveLength(2);
    await sql(`UPDATE reports SET status = 'completed' WHERE id = $1`, [report]);
    expect(await indexer.tick()).toBe(true);
    expect(await documents(all)).toHaveLength(2);
    await expectSameAsDocumented(p, ['platypus', 'js/xss', 'cross-site', 'eval']);

    // Merge: the merged finding leaves search results as it leaves lists; unmerge brings it back.
    const byRule = Object.fromEntries(
      (await sql(`SELECT id, rule_id FROM findings WHERE product_id = $1`, [p.id])).map((r) => [
        String(r['rule_id']),
        String(r['id']),
      ]),
    );
    const survivor = byRule['js/xss'];
    const member = byRule['js/platypus-taint'];
    await admin
      .apply(
        request(t.url)
          .post('/api/v1/findings/merge')
          .send({ survivor_id: survivor, finding_ids: [member] }),
      )
      .expect(200);
    expect(await listed(p, { search: 'platypus' })).toEqual([]);
    await expectSameAsDocumented(p, ['platypus', 'js/', 'cross-site']);
    await admin.apply(request(t.url).post(`/api/v1/findings/${member}/unmerge`)).expect(200);
    expect(await listed(p, { search: 'platypus' })).toEqual([member]);
    await expectSameAsDocumented(p, ['platypus', 'js/', 'cross-site']);
  });
});
