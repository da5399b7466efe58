import request from 'supertest';
import { bearer } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { Login } from '../support/sessions';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { TestApp } from '../support/test-app';
import { freshProduct } from '../support/findings-seed';

let t: TestApp;
let admin: Login;
let stack: IngestionStack;

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
  ({ t, admin } = stack);
}, 30_000);
afterAll(() => stack.close());

interface Warning {
  code: string;
  count: number;
  message: string;
  result_stored: boolean;
}

/** Uploads, waits, and reads the report as `language` sees it. */
async function ingest(productId: string, body: string | Buffer, language = 'en') {
  const id = await uploadReport(t, bearer(admin), productId, body, { filename: 'report.json' });
  await waitForReport(t, bearer(admin), id);
  const res = await bearer(admin)
    .apply(request(t.url).get(`/api/v1/reports/${id}`).set('Accept-Language', language))
    .expect(200);
  return (
    res.body as {
      data: {
        status: string;
        failure_code: string | null;
        failure_reason: string | null;
        counts: { new: number; results: number };
        warnings: Warning[];
      };
    }
  ).data;
}

function rows<T>(sql: string, params: unknown[]): Promise<T[]> {
  return withDb(t, async (db) => (await db.query(sql, params)).rows as T[]);
}

function sarif(results: unknown, driver: object = { name: 'ValidScanner' }, run: object = {}) {
  return JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver }, ...run, results }] });
}

const at = (region: object) => [
  { physicalLocation: { artifactLocation: { uri: 'src/a.c' }, region } },
];
const result = (text: string, extra: object = {}) => ({
  ruleId: 'R1',
  message: { text },
  ...extra,
});

describe('Report validation - /api/v1/reports/{report_id} (GET)', () => {
  it('SARIF whose results is an object fails instead of completing with 0 findings', async () => {
    const product = await freshProduct(t, admin);
    const report = await ingest(product.id, sarif({ 0: result('hidden') }));
    expect(report).toMatchObject({ status: 'failed', failure_code: 'report_structure_invalid' });
  });

  it('skips results whose line is invalid, stores the one whose level is unknown, and tells them apart', async () => {
    const product = await freshProduct(t, admin);
    const report = await ingest(
      product.id,
      sarif([
        result('stored', { level: 'error', locations: at({ startLine: 3 }) }),
        result('bad level', { level: 'catastrophic', locations: at({ startLine: 4 }) }),
        result('line zero', { locations: at({ startLine: 0 }) }),
        result('fractional line', { locations: at({ startLine: 2.5 }) }),
        result('line 2^53', { locations: at({ startLine: 2 ** 53 }) }),
      ]),
      'ru',
    );
    expect(report).toMatchObject({ status: 'completed', counts: { new: 2, results: 2 } });
    expect(report.warnings).toEqual([
      {
        code: 'result_region_invalid',
        count: 3,
        message: expect.stringMatching(/^пропущены/),
        result_stored: false,
      },
      {
        code: 'result_level_ignored',
        count: 1,
        message:
          'результаты с уровнем (level) вне значений none, note, warning, error сохранены без него (важность по уровню правила, иначе warning: MEDIUM)',
        result_stored: true,
      },
    ]);
    const stored = await rows<{ description: string; start_line: number; severity: string }>(
      'SELECT description, start_line, severity FROM findings WHERE product_id = $1 ORDER BY start_line',
      [product.id],
    );
    expect(stored).toEqual([
      { description: 'stored', start_line: 3, severity: 'HIGH' },
      { description: 'bad level', start_line: 4, severity: 'MEDIUM' },
    ]);
  });

  it('SARIF-draft baselineState `existing` no longer drops the results: stored as unchanged, counted as mapped', async () => {
    const product = await freshProduct(t, admin);
    const report = await ingest(
      product.id,
      sarif([
        result('kept one', { baselineState: 'existing', locations: at({ startLine: 1 }) }),
        result('kept two', { baselineState: 'existing', locations: at({ startLine: 2 }) }),
        result('new one', { baselineState: 'new', locations: at({ startLine: 3 }) }),
      ]),
    );
    expect(report).toMatchObject({ status: 'completed', counts: { new: 3, results: 3 } });
    expect(report.warnings).toEqual([
      {
        code: 'result_baseline_state_mapped',
        count: 2,
        message: expect.stringContaining('existing'),
        result_stored: true,
      },
    ]);
    const stored = await rows<{ baseline_state: string }>(
      'SELECT baseline_state FROM findings WHERE product_id = $1 ORDER BY start_line',
      [product.id],
    );
    expect(stored.map((r) => r.baseline_state)).toEqual(['unchanged', 'unchanged', 'new']);
  });

  it('a report of only invalid results completes with 0 findings and its warnings', async () => {
    const product = await freshProduct(t, admin);
    const report = await ingest(
      product.id,
      sarif([7, result('x', { locations: at({ startLine: 0 }) })]),
    );
    expect(report).toMatchObject({ status: 'completed', counts: { new: 0, results: 0 } });
    expect(report.warnings.map((w) => [w.code, w.count, w.result_stored])).toEqual([
      ['result_not_object', 1, false],
      ['result_region_invalid', 1, false],
    ]);
  });

  it('adds up the warnings of every batch (one transaction per batch)', async () => {
    const product = await freshProduct(t, admin);
    const results = Array.from({ length: 4_500 }, (_, i) =>
      i % 1_000 === 7
        ? result(`odd level ${i}`, { level: 'severe', locations: at({ startLine: i + 1 }) })
        : i % 1_000 === 9
          ? result(`bad ${i}`, { locations: at({ startLine: 0 }) })
          : result(`finding ${i}`, { locations: at({ startLine: i + 1 }) }),
    );
    const report = await ingest(product.id, sarif(results));
    expect(report).toMatchObject({ status: 'completed', counts: { new: 4_495, results: 4_495 } });
    expect(report.warnings.map((w) => [w.code, w.count])).toEqual([
      ['result_region_invalid', 5],
      ['result_level_ignored', 5],
    ]);
  });

  it.each([
    ['SARIF', sarif([result('after a BOM')])],
    ['SonarQube', JSON.stringify({ issues: [{ rule: 'r', message: 'after a BOM', line: 1 }] })],
  ])('reads a %s report that starts with a UTF-8 byte order mark', async (_format, text) => {
    const product = await freshProduct(t, admin);
    const report = await ingest(
      product.id,
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
    );
    expect(report).toMatchObject({ status: 'completed', counts: { new: 1 } });
  });
});

describe('Text PostgreSQL refuses - /api/v1/reports/{report_id} (GET)', () => {
  const NUL = '\u0000';
  const hostile = (version: string, revision: string, padding = '') =>
    sarif(
      [
        result(`message ${NUL} and a lone \ud800 surrogate`, {
          ruleId: `rule${NUL}id`,
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: `src/${NUL}file.c` },
                region: { startLine: 4, snippet: { text: `snip${NUL}pet` } },
              },
              logicalLocations: [{ fullyQualifiedName: `ns${NUL}::f` }],
            },
          ],
          fingerprints: { [`key${NUL}`]: `value${NUL}`, lone: '\udc00' },
          properties: { tags: [`tag${NUL}`], note: `prop${NUL}`, [`k${NUL}`]: ['\ud800'] },
        }),
        result('network', {
          ruleId: 'net',
          properties: { host: `h${NUL}ost`, port: 22, service: `ss${NUL}h` },
        }),
      ],
      { name: `Scanner${NUL}`, version },
      {
        versionControlProvenance: [{ repositoryUri: 'https://x.test/r', revisionId: revision }],
        properties: { padding },
      },
    );

  it('stores NUL and unpaired surrogates as U+FFFD in every text field (COPY path)', async () => {
    const product = await freshProduct(t, admin);
    const report = await ingest(product.id, hostile(`1${NUL}0`, `rev${NUL}1`));
    expect(report).toMatchObject({ status: 'completed', counts: { new: 2 }, failure_code: null });
    const [code] = await rows<Record<string, unknown>>(
      `SELECT rule_id, description, file_path, snippet, logical_location, report_tags, scanner,
              scanner_version, revision, fingerprints, properties
         FROM findings WHERE product_id = $1 AND rule_id <> 'net'`,
      [product.id],
    );
    expect(code).toEqual({
      rule_id: 'rule\uFFFDid',
      description: 'message \uFFFD and a lone \uFFFD surrogate',
      file_path: 'src/\uFFFDfile.c',
      snippet: 'snip\uFFFDpet',
      logical_location: 'ns\uFFFD::f',
      report_tags: ['tag\uFFFD'],
      scanner: 'Scanner\uFFFD',
      scanner_version: '1\uFFFD0',
      revision: 'rev\uFFFD1',
      fingerprints: {
        fingerprints: { 'key\uFFFD': 'value\uFFFD', lone: '\uFFFD' },
        partial_fingerprints: {},
      },
      properties: { note: 'prop\uFFFD', 'k\uFFFD': ['\uFFFD'] },
    });
    const [network] = await rows<Record<string, unknown>>(
      `SELECT host, service FROM findings WHERE product_id = $1 AND rule_id = 'net'`,
      [product.id],
    );
    expect(network).toEqual({ host: 'h\uFFFDost', service: 'ss\uFFFDh' });
    const [stored] = await rows<Record<string, unknown>>(
      'SELECT scanner, scanner_version FROM reports WHERE product_id = $1',
      [product.id],
    );
    expect(stored).toEqual({ scanner: 'Scanner\uFFFD', scanner_version: '1\uFFFD0' });
  });

  it('re-sightings of a large report (memo and touch path) bind sanitised version and revision', async () => {
    const product = await freshProduct(t, admin);
    const padding = 'p'.repeat(1_100_000); // over RESULT_MEMO_MIN_BYTES: the memo is used
    const first = await ingest(product.id, hostile('1', 'rev1', padding));
    expect(first).toMatchObject({ status: 'completed', counts: { new: 2 } });
    const again = await ingest(product.id, hostile(`2${NUL}`, `rev${NUL}2`, padding));
    expect(again).toMatchObject({
      status: 'completed',
      counts: { new: 0, results: 2 },
      failure_code: null,
    });
    const stored = await rows<{ scanner_version: string; revision: string }>(
      'SELECT scanner_version, revision FROM findings WHERE product_id = $1',
      [product.id],
    );
    expect(stored).toEqual([
      { scanner_version: '2\uFFFD', revision: 'rev\uFFFD2' },
      { scanner_version: '2\uFFFD', revision: 'rev\uFFFD2' },
    ]);
  });
});

describe('SonarQube issues without a location - /api/v1/reports/{report_id} (GET)', () => {
  const dependencyIssue = (key: string, cve: string) => ({
    key,
    rule: 'dependency-check:UsingComponentWithKnownVulnerability',
    component: 'shop:pom.xml',
    project: 'shop',
    severity: 'CRITICAL',
    type: 'VULNERABILITY',
    status: 'OPEN',
    message: `Filename: log4j-core-2.14.1.jar | Reference: ${cve} | CVSS Score: 10.0`,
  });

  it('keeps one finding per CVE, and re-imports update them instead of adding more', async () => {
    const product = await freshProduct(t, admin);
    const report = JSON.stringify({
      issues: [
        dependencyIssue('AY1', 'CVE-2021-44228'),
        dependencyIssue('AY2', 'CVE-2021-45046'),
        dependencyIssue('AY3', 'CVE-2021-45105'),
      ],
    });
    const first = await ingest(product.id, report);
    expect(first).toMatchObject({ status: 'completed', counts: { new: 3, results: 3 } });
    const stored = await rows<{ cve: string; file_path: string; start_line: number | null }>(
      'SELECT cve, file_path, start_line FROM findings WHERE product_id = $1 ORDER BY cve',
      [product.id],
    );
    expect(stored).toEqual([
      { cve: 'CVE-2021-44228', file_path: 'pom.xml', start_line: null },
      { cve: 'CVE-2021-45046', file_path: 'pom.xml', start_line: null },
      { cve: 'CVE-2021-45105', file_path: 'pom.xml', start_line: null },
    ]);
    const again = await ingest(product.id, report);
    expect(again.counts).toMatchObject({ new: 0, results: 3 });
  });
});
