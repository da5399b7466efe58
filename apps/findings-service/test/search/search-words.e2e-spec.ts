import request from 'supertest';
import { DataSource } from 'typeorm';
import { findingListSql } from '../../src/modules/findings/list/finding-list.sql';
import { containsPattern } from '../../src/modules/findings/query';
import { FindingSearchIndexer } from '../../src/modules/findings/search/finding-search-indexer.service';
import { FindingSearchPlanner } from '../../src/modules/findings/search/finding-search-planner';
import { FindingSearchRepository } from '../../src/modules/findings/search/finding-search.repository';
import { wordSearchable } from '../../src/modules/findings/search/finding-search.sql';
import { bearer, type Auth } from '../support/catalog';
import { freshProduct, seedFindings, type Product } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { seededRandom } from '../support/seeded-random';

/**
 * The word index of free-text search (issue 34 item 4, migration 1795607100000,
 * docs/findings-service/findings-api.md#free-text-search) on real PostgreSQL, over generated
 * texts with non-ASCII letters, LIKE metacharacters, punctuation, every kind of white space and
 * very long values: for terms cut from those texts (and altered), the list statement through
 * the word index returns exactly the documented result (title, description or rule id ILIKE
 * '%term%' on `findings`), and for a term without white space the word index's candidates ARE
 * that result (no stale or missing postings) — after indexing, after changes of title,
 * description and rule id (trigger), deletions, two indexers at once and a re-index.
 */
let t: TestApp;
let adminLogin: Login;
let admin: Auth;
let ds: DataSource;
let indexer: FindingSearchIndexer;
let p: Product;

beforeAll(async () => {
  t = await startTestApp();
  adminLogin = await loginAdmin(t);
  admin = bearer(adminLogin);
  ds = t.app.get(DataSource);
  indexer = new FindingSearchIndexer(new FindingSearchRepository(ds));
  p = await freshProduct(t, adminLogin);
});
afterAll(async () => {
  await t?.close();
});

type Row = Record<string, unknown>;
const sql = (text: string, values: unknown[] = []) => ds.query(text, values) as Promise<Row[]>;
const ids = (rows: Row[]) => rows.map((r) => String(r['id'])).sort();

const { rnd, pick } = seededRandom(34_4);

const PARTS = [
  'rule-217',
  'Rule-2170',
  'src/module-17/file-3.ts',
  'module-17/file-30',
  'lib/vendor/pkg-7/index.js',
  'Crème',
  'brûlée',
  'ÉCOLE',
  'straße',
  'ΣΊΣΥΦΟΣ',
  'привет',
  '漢字テスト',
  '😀emoji',
  '100%',
  'DES_CBC',
  'C:\\temp\\x',
  '..\\..',
  'a"b\'c',
  '(x)[y]{z}',
  'key=value&q=1',
  'semi;colon',
  'tab\there',
  'new\nline',
  'cr\rlf',
  'form\ffeed',
  'vt\vtab',
  'nb\u00a0sp',
  'injection',
  'SQL',
  'finding',
  '77777:',
];
const SEPARATORS = [' ', ' ', ' ', '  ', '\t', '\n', '\r\n', '\f', '\v', '\u00a0', '-', '/', ''];

function text(words: number): string {
  let out = '';
  for (let i = 0; i < words; i++) out += (i ? pick(SEPARATORS) : '') + pick(PARTS);
  return out;
}
function longWord(n: number): string {
  let out = '';
  while (out.length < n) out += pick(['ab', 'Cd', 'é', '_', '%', 'x9', 'rule-217', '/']);
  return out;
}
function generated(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    title: i % 29 === 0 ? longWord(3_000) : text(1 + Math.floor(rnd() * 5)),
    description:
      i % 31 === 0 ? `${text(3)} ${longWord(20_000)} ${text(2)}` : text(Math.floor(rnd() * 12)),
    rule_id: i % 37 === 0 ? longWord(300) : text(1 + Math.floor(rnd() * 2)),
  }));
}

/** Terms: pieces cut from the current texts (some with white space), case-flipped, and fixed ones. */
async function terms(n: number): Promise<string[]> {
  const rows = await sql(`SELECT title, description, rule_id FROM findings WHERE product_id = $1`, [
    p.id,
  ]);
  const out = new Set<string>([
    'rule-217',
    'module-17/file-3',
    'MODULE-17/FILE-3',
    'crème',
    'École',
    'STRASSE',
    'straße',
    '100%',
    'des_cbc',
    '_cbc',
    'C:\\temp',
    '..\\',
    'a"b',
    'e&q=1',
    'nb\u00a0sp',
    'zqxj-nothing',
    'ab',
    '%',
    'x9x9',
    'tab\there',
    'new\nline',
    'finding 77777:',
  ]);
  while (out.size < n) {
    const r = pick(rows);
    const source = String(pick([r['title'], r['description'], r['rule_id']]));
    const chars = [...source];
    if (chars.length === 0) continue;
    const from = Math.floor(rnd() * chars.length);
    const len = 1 + Math.floor(rnd() * Math.min(24, chars.length - from));
    let term = chars.slice(from, from + len).join('');
    if (rnd() < 0.3) term = term.toUpperCase();
    if (rnd() < 0.2) term = term.toLowerCase();
    if (rnd() < 0.1) term += 'q';
    out.add(term);
  }
  return [...out];
}

/** The documented semantics, straight on `findings`. */
async function expected(term: string): Promise<string[]> {
  return ids(
    await sql(
      `SELECT id FROM findings WHERE product_id = $1 AND merged_into_id IS NULL
         AND suppression_rule_id IS NULL
         AND (title ILIKE $2 ESCAPE '\\' OR description ILIKE $2 ESCAPE '\\' OR rule_id ILIKE $2 ESCAPE '\\')`,
      [p.id, containsPattern(term)],
    ),
  );
}

/** The list statement with the term through the word index. */
async function throughWords(term: string): Promise<string[]> {
  const { sql: statement, params } = findingListSql({
    scope: { all: true, projectIds: [], productIds: [] } as never,
    filters: { productIds: [p.id], search: term },
    indexedSearch: new Map([[term, { words: true }]]),
    sort: 'created_at',
    order: 'desc',
    fetch: 10_000,
  });
  if (wordSearchable(term)) expect(statement).toContain('finding_search_word');
  return ids(await sql(statement, params));
}

/**
 * The word index's own candidates for a term (no check on the finding, frontier ignored), from
 * the documents' word ids and from the ordered postings (migration 1795608040000): the same.
 */
async function candidates(term: string): Promise<string[]> {
  const fromDocuments = ids(
    await sql(
      `SELECT f.id FROM finding_search fs JOIN findings f ON f.id = fs.finding_id
        WHERE f.product_id = $1 AND fs.word_ids && ARRAY(
          SELECT sw.id FROM finding_search_word sw WHERE sw.word ILIKE $2 ESCAPE '\\')`,
      [p.id, containsPattern(term)],
    ),
  );
  const fromPostings = ids(
    await sql(
      `SELECT DISTINCT f.id FROM finding_search_posting fp
         JOIN findings f ON f.id = fp.finding_id AND f.created_at = fp.created_at
        WHERE f.product_id = $1 AND fp.word_id = ANY(ARRAY(
          SELECT sw.id FROM finding_search_word sw WHERE sw.word ILIKE $2 ESCAPE '\\'))`,
      [p.id, containsPattern(term)],
    ),
  );
  expect({ term, fromPostings }).toEqual({ term, fromPostings: fromDocuments });
  return fromDocuments;
}

async function expectExact(list: string[], checkCandidates = true): Promise<number> {
  let viaWords = 0;
  for (const term of list) {
    const want = await expected(term);
    expect({ term, ids: await throughWords(term) }).toEqual({ term, ids: want });
    if (checkCandidates && wordSearchable(term)) {
      expect({ term, candidates: await candidates(term) }).toEqual({ term, candidates: want });
      viaWords++;
    }
  }
  return viaWords;
}

async function indexedAll(): Promise<void> {
  await indexer.catchUp();
  const rows = await sql(
    `SELECT count(*)::int AS n, count(fs.word_ids)::int AS w FROM findings f
       LEFT JOIN finding_search fs ON fs.finding_id = f.id WHERE f.product_id = $1`,
    [p.id],
  );
  expect(rows[0]['w']).toBe(rows[0]['n']);
}

describe('Free-text search through the word index', () => {
  let all: string[];
  let list: string[];

  beforeAll(async () => {
    all = await seedFindings(t, p, generated(240));
    list = await terms(160);
  });

  it('same result as the plain condition before indexing, and the words and postings after it', async () => {
    await expectExact(list.slice(0, 40), false);
    await indexedAll();
    const words = await sql(
      `SELECT count(*)::int AS n, max(length(word)) AS longest FROM finding_search_word`,
    );
    expect(Number(words[0]['n'])).toBeGreaterThan(50);
    expect(Number(words[0]['longest'])).toBeGreaterThanOrEqual(20_000);
    const viaWords = await expectExact(list);
    expect(viaWords).toBeGreaterThan(40);
    // A substring inside one word: a path fragment, a rule id fragment.
    expect((await candidates('module-17/file-3')).length).toBeGreaterThan(0);
    expect((await candidates('rule-217')).length).toBeGreaterThan(0);
  });

  it('the planner sends a rare term without white space through the words, and the API answers the same', async () => {
    const planner = t.app.get(FindingSearchPlanner);
    const plan = await planner.indexedTerms({ filters: { search: 'module-17/file-3' } });
    expect(plan?.get('module-17/file-3')).toEqual({ words: true, frontier: expect.any(String) });
    const spaced = await planner.indexedTerms({ filters: { search: 'finding 77777:' } });
    expect(spaced?.get('finding 77777:')?.words).toBeUndefined();
    // The API trims the `search` parameter (finding-filters.dto.ts): compare with the trimmed term.
    for (const term of list
      .map((x) => x.trim())
      .filter((x) => x !== '')
      .slice(0, 30)) {
      const res = await admin.apply(
        request(t.url)
          .get('/api/v1/findings')
          .query({ product_id: p.id, limit: 500, search: term }),
      );
      expect(res.status).toBe(200);
      const got = (res.body as { data: { items: { id: string }[] } }).data.items.map((f) => f.id);
      expect({ term, ids: got.sort() }).toEqual({ term, ids: await expected(term) });
    }
  });

  it('changes of title, description and rule id and deletions keep the postings exact', async () => {
    const changed = all.filter((_, i) => i % 3 === 0);
    const fresh = generated(changed.length);
    for (const [i, id] of changed.entries()) {
      const column = (['title', 'description', 'rule_id'] as const)[i % 3];
      await sql(`UPDATE findings SET ${column} = $2 WHERE id = $1`, [id, fresh[i][column]]);
    }
    // Several columns in one statement, and a statement that changes nothing textual.
    await sql(
      `UPDATE findings SET title = 'Renamed rule-2171 zebracorn', rule_id = 'Ünïcode/rule-9'
        WHERE id = $1`,
      [all[1]],
    );
    await sql(`UPDATE findings SET severity = 'LOW' WHERE id = ANY($1::uuid[])`, [
      all.slice(0, 20),
    ]);
    await sql(`DELETE FROM findings WHERE id = ANY($1::uuid[])`, [
      all.filter((_, i) => i % 7 === 5),
    ]);
    await expectExact([...(await terms(120)), 'zebracorn', 'rule-2171', 'ünïcode/rule', 'rule-9']);
    expect(await candidates('zebracorn')).toEqual([all[1]]);
  });

  it('two indexers at once over findings sharing new words, then a re-index, stay exact', async () => {
    await seedFindings(
      t,
      p,
      Array.from({ length: 60 }, (_, i) => ({
        title: `Wombat-${i % 5} shared-newword ${text(2)}`,
        description: `wallaby/${i % 3}.ts ${longWord(i === 0 ? 5_000 : 10)}`,
        rule_id: `kanga-${i % 4}`,
      })),
    );
    const second = new FindingSearchIndexer(new FindingSearchRepository(ds));
    await Promise.all([indexer.catchUp(20_000, 7), second.catchUp(20_000, 11)]);
    const dup = await sql(
      `SELECT count(*)::int AS n FROM (SELECT md5(word) FROM finding_search_word GROUP BY 1 HAVING count(*) > 1) d`,
    );
    expect(dup[0]['n']).toBe(0);
    await indexedAll();
    await expectExact(['wombat-3', 'shared-newword', 'wallaby/2', 'kanga-1', ...(await terms(60))]);

    // Re-index: rows written before the word index (no word ids) are rewritten once the frontier
    // goes back; meanwhile the results stay the documented ones.
    await sql(
      `UPDATE finding_search SET word_ids = NULL WHERE finding_id IN
         (SELECT id FROM findings WHERE product_id = $1)`,
      [p.id],
    );
    await sql(`UPDATE finding_search_state SET frontier = '-infinity'`);
    await expectExact(list.slice(0, 30), false);
    await indexedAll();
    await expectExact(list);
  });
});
