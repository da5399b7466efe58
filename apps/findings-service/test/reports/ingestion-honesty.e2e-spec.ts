import { Client } from 'pg';
import request from 'supertest';
import { REPORT_FAILURE_MESSAGES } from '../../src/modules/reports/report-messages';
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
  stack = await startIngestion({ env: { INGEST_ATTEMPTS: '2' }, worker: true });
  ({ t, admin } = stack);
}, 30_000);
afterAll(() => stack.close());

interface JobView {
  state: string;
  attempts_made: number;
  failed_reason: string | null;
}

async function reportIn(id: string, language: string) {
  const res = await bearer(admin)
    .apply(request(t.url).get(`/api/v1/reports/${id}`).set('Accept-Language', language))
    .expect(200);
  return (res.body as { data: { failure_code: string | null; failure_reason: string | null } })
    .data;
}

/** The job once BullMQ has finished it (the report is marked before the job settles). */
async function settledJob(id: string): Promise<JobView> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await bearer(admin)
      .apply(request(t.url).get(`/api/v1/jobs/${id}`))
      .expect(200);
    const job = (res.body as { data: JobView }).data;
    if (job.state === 'failed' || job.state === 'completed') return job;
    if (Date.now() > deadline) throw new Error(`job ${id} is still ${job.state}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function sarif(results: unknown): string {
  return JSON.stringify({
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'HonestScanner' } }, results }],
  });
}

const valid = sarif([{ ruleId: 'R1', level: 'error', message: { text: 'one finding' } }]);

/** A converter's SARIF 2.0.0: `tool.name`, string `originalUriBaseIds`, `files` (not 2.1.0). */
const sarif20 = JSON.stringify({
  $schema: 'http://json.schemastore.org/sarif-2.0.0',
  version: '2.0.0',
  runs: [
    {
      tool: { name: 'Converter', version: '3.1' },
      originalUriBaseIds: { SRCROOT: 'file:///work/src/' },
      files: { 'a.c': {} },
      results: [
        {
          ruleId: 'C1',
          message: { text: 'x' },
          locations: [{ physicalLocation: { fileLocation: { uri: 'a.c', uriBaseId: 'SRCROOT' } } }],
        },
      ],
    },
  ],
});
let deep = '1';
for (let i = 0; i < 100_000; i += 1) deep = `[${deep}]`;

describe('Ingestion failures - /api/v1/reports/{report_id} (GET)', () => {
  it.each([
    ['malformed JSON', '{"version":"2.1.0","runs":[{"results":[}]}', 'report_malformed'],
    [
      '100 000 levels of nesting',
      `{"version":"2.1.0","runs":[{"results":[{"message":{"text":"x"},"properties":{"d":${deep}}}]}]}`,
      'report_nesting_too_deep',
    ],
    ['results that are an object', sarif({ first: { ruleId: 'R' } }), 'report_structure_invalid'],
    ['a SARIF 1.0 log', '{"version":"1.0.0","runs":[]}', 'report_version_unsupported'],
    ['a SARIF 2.0.0 log', sarif20, 'sarif_version_unsupported'],
    ['a UTF-16 report', Buffer.from(`\uFEFF${valid}`, 'utf16le'), 'report_encoding_unsupported'],
  ])('%s fails after exactly one attempt with a stable code', async (_name, body, code) => {
    const product = await freshProduct(t, admin);
    const id = await uploadReport(t, bearer(admin), product.id, body);
    const report = await waitForReport(t, bearer(admin), id);
    expect(report).toMatchObject({ status: 'failed', failure_code: code });
    const job = await settledJob(id);
    expect(job).toMatchObject({ state: 'failed', attempts_made: 1, failed_reason: code });
  });

  it('failure_reason is the catalog message, localized by Accept-Language, with safe details', async () => {
    const product = await freshProduct(t, admin);
    const text = '{"version":"2.1.0","runs":[{"results":[}]}';
    const id = await uploadReport(t, bearer(admin), product.id, text);
    await waitForReport(t, bearer(admin), id);
    const offset = text.indexOf('}]}');
    expect(await reportIn(id, 'en')).toEqual(
      expect.objectContaining({
        failure_code: 'report_malformed',
        failure_reason: `the report is not valid JSON (first error at byte ${offset})`,
      }),
    );
    expect((await reportIn(id, 'ru;q=0.9, en;q=0.5')).failure_reason).toBe(
      `отчёт не является корректным JSON (первая ошибка в байте ${offset})`,
    );

    const structural = await uploadReport(t, bearer(admin), product.id, sarif('x'));
    await waitForReport(t, bearer(admin), structural);
    expect((await reportIn(structural, 'ru')).failure_reason).toBe(
      'структура отчёта некорректна: у runs[0].results неверный тип JSON',
    );
  });

  it('a SARIF 2.0.0 log is refused whole, its failure_reason naming the version (never read partly)', async () => {
    const product = await freshProduct(t, admin);
    const id = await uploadReport(t, bearer(admin), product.id, sarif20);
    const report = await waitForReport(t, bearer(admin), id);
    expect(report).toMatchObject({
      status: 'failed',
      failure_code: 'sarif_version_unsupported',
      counts: { new: 0, results: 0 },
    });
    expect((await reportIn(id, 'en')).failure_reason).toBe(
      'SARIF 2.0.0 is not supported: only SARIF 2.1.0 is read (convert the log to 2.1.0, e.g. with the SARIF multitool)',
    );
    expect((await reportIn(id, 'ru')).failure_reason).toMatch(/^SARIF 2\.0\.0 не поддерживается/);
    const stored = await withDb(t, async (db) =>
      db.query('SELECT count(*)::int AS n FROM findings WHERE product_id = $1', [product.id]),
    );
    expect(stored.rows).toEqual([{ n: 0 }]);
  });

  it('a deterministic database refusal fails at once as internal_error with an error id', async () => {
    // A constraint of this test's own database refuses one rule id: the refusal is the same on
    // every attempt, so it is not retried, and the driver's text stays in the server log.
    const db = new Client({ connectionString: t.config.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `ALTER TABLE findings ADD CONSTRAINT ck_test_refused_rule CHECK (rule_id <> 'refused-rule') NOT VALID`,
      );
    } finally {
      await db.end();
    }
    const product = await freshProduct(t, admin);
    const id = await uploadReport(
      t,
      bearer(admin),
      product.id,
      sarif([{ ruleId: 'refused-rule', message: { text: 'x' } }]),
    );
    const report = await waitForReport(t, bearer(admin), id);
    expect(report.failure_code).toBe('internal_error');
    expect(report.failure_reason).toMatch(/^internal error \(error id [0-9a-f-]{36}\)$/);
    expect(await settledJob(id)).toMatchObject({
      state: 'failed',
      attempts_made: 1,
      failed_reason: 'internal_error',
    });
  });
});

/**
 * The backend of the worker's batch transaction, once it waits for the findings table lock.
 * Polled outside the lock holder's transaction: pg_stat_activity is a snapshot per transaction.
 */
async function waitForLockWaiter(t: TestApp): Promise<number> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const rows = await withDb(t, async (db) => {
      const res = await db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return res.rows;
    });
    if (rows[0]) return rows[0].pid;
    if (Date.now() > deadline) throw new Error('the worker never waited for the findings lock');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Transient failures - /api/v1/jobs/{id} (GET)', () => {
  /**
   * Holds the findings table in SHARE mode (the upload does not write findings; the worker's
   * upsert waits), kills the waiting backend `times` times (the connection is lost: transient),
   * then lets it through.
   */
  async function ingestThroughLostConnections(times: number) {
    const product = await freshProduct(t, admin);
    const db = new Client({ connectionString: t.config.databaseUrl });
    await db.connect();
    try {
      await db.query('BEGIN');
      await db.query('LOCK TABLE findings IN SHARE MODE');
      const id = await uploadReport(t, bearer(admin), product.id, valid);
      for (let i = 0; i < times; i += 1) {
        const waiting = await waitForLockWaiter(t);
        await db.query(`SELECT pg_terminate_backend($1)`, [waiting]);
      }
      await db.query('ROLLBACK');
      return { id, report: await waitForReport(t, bearer(admin), id), job: await settledJob(id) };
    } finally {
      await db.end();
    }
  }

  it('a lost database connection is retried and the next attempt completes the report', async () => {
    const { report, job } = await ingestThroughLostConnections(1);
    expect(report).toMatchObject({ status: 'completed', counts: { new: 1, results: 1 } });
    expect(job).toMatchObject({ state: 'completed', attempts_made: 2 });
  }, 30_000);

  it('after the last attempt the report fails as database_unavailable', async () => {
    const { id, report, job } = await ingestThroughLostConnections(2);
    expect(report).toMatchObject({ status: 'failed', failure_code: 'database_unavailable' });
    expect(job).toMatchObject({
      state: 'failed',
      attempts_made: 2,
      failed_reason: 'database_unavailable',
    });
    expect((await reportIn(id, 'en')).failure_reason).toBe(
      REPORT_FAILURE_MESSAGES.database_unavailable.en,
    );
  }, 30_000);
});
