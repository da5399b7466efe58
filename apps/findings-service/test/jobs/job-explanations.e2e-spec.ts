import request from 'supertest';
import { bearer } from '../support/catalog';
import { freshProduct, listFindings, Product } from '../support/findings-seed';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

/**
 * Jobs and uploads that explain themselves (issue 25): a job row names its file, project and
 * product with counts and duration; a failure its reason in the caller's language; retry is
 * refused for a report that can never be read; the report counts duplicates within it.
 */
let stack: IngestionStack;
let t: TestApp;
let admin: Login;
let product: Product;

const job = (id: string, language = 'en') =>
  bearer(admin)
    .apply(request(t.url).get(`/api/v1/jobs/${id}`).set('Accept-Language', language))
    .expect(200)
    .then((res) => res.body.data);

/** Three results, two of them the same finding (same rule, file and line). */
const sarif = JSON.stringify({
  version: '2.1.0',
  runs: [
    {
      tool: { driver: { name: 'semgrep', version: '1.0.0' } },
      results: [10, 10, 20].map((line) => ({
        ruleId: 'sql-injection',
        level: 'error',
        message: { text: 'query built from input' },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'src/db.ts' },
              region: { startLine: line },
            },
          },
        ],
      })),
    },
  ],
});

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
  ({ t, admin } = stack);
  product = await freshProduct(t, admin);
}, 60_000);
afterAll(() => stack.close());

describe('Job explanations - /api/v1/jobs[/{id}] (GET), /api/v1/jobs/{id}/retry (POST)', () => {
  it("names the report's file, project and product with counts (duplicates) and duration", async () => {
    const id = await uploadReport(t, bearer(admin), product.id, sarif, {
      filename: 'semgrep.sarif',
    });
    const report = await waitForReport(t, bearer(admin), id);
    expect(report.counts).toEqual({ new: 2, updated: 0, renewed: 0, results: 3, duplicates: 1 });
    const row = await job(id);
    expect(row).toMatchObject({
      id,
      state: 'completed',
      file_name: 'semgrep.sarif',
      project_name: expect.any(String),
      product_name: product.name,
      report_status: 'completed',
      counts: { new: 2, updated: 0, renewed: 0, results: 3, duplicates: 1 },
      failure_code: null,
      failure_reason: null,
      retryable: false,
    });
    expect(row.duration_ms).toEqual(expect.any(Number));
    const listed = await bearer(admin)
      .apply(request(t.url).get('/api/v1/jobs').query({ report_id: id }))
      .expect(200);
    expect(listed.body.data[0]).toMatchObject({
      file_name: 'semgrep.sarif',
      product_name: product.name,
    });
    // The upload's findings: those the report created.
    const created = await listFindings(t, bearer(admin), { first_report_id: id });
    expect(created.items).toHaveLength(2);
  });

  it('a report that can never be read: its reason in the language asked, no retry', async () => {
    const id = await uploadReport(t, bearer(admin), product.id, '{"version": "2.1.0", "runs": [', {
      filename: 'broken.sarif',
    });
    expect((await waitForReport(t, bearer(admin), id)).status).toBe('failed');
    const en = await job(id);
    expect(en).toMatchObject({
      state: 'failed',
      report_status: 'failed',
      failure_code: expect.stringMatching(/^report_/),
      retryable: false,
    });
    expect(en.failure_reason).toEqual(expect.any(String));
    const ru = await job(id, 'ru');
    expect(ru.failure_reason).not.toBe(en.failure_reason);
    expect(ru.failure_reason).toMatch(/[а-я]/);
    const refused = await bearer(admin)
      .apply(request(t.url).post(`/api/v1/jobs/${id}/retry`))
      .expect(422);
    expect(refused.body.code).toBe('job_not_retryable');
  });
});
