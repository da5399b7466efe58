import { readFileSync } from 'node:fs';
import request from 'supertest';
import { corpusPath } from '@platform/report-parsing/testing';
import { bearer } from '../support/catalog';
import { freshProduct } from '../support/findings-seed';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

let t: TestApp;
let admin: Login;
let stack: IngestionStack;

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
  ({ t, admin } = stack);
}, 30_000);
afterAll(() => stack.close());

interface Expectation {
  findings?: number;
  skipped?: Record<string, number>;
  ignored?: Record<string, number>;
  failure?: { code: string };
}

interface Warning {
  code: string;
  count: number;
  result_stored: boolean;
}

/** Report shapes from the parser's corpus (libs/report-parsing/test/corpus/README.md). */
const SHAPES = [
  'sonar-report-export.json',
  'sonarqube-web-api-issues.json',
  'codeql-javascript.sarif',
  'baseline-state-existing.sarif',
  'network-scanner.sarif',
  'multiple-runs.sarif',
  'sarif-2.0.0-converter.sarif',
];

describe('Report corpus through HTTP - /api/v1/products/{product_id}/reports (POST)', () => {
  it.each(SHAPES)('%s ends as its corpus expectation says', async (name) => {
    const expected = JSON.parse(
      readFileSync(corpusPath(`${name}.expected.json`), 'utf8'),
    ) as Expectation;
    const product = await freshProduct(t, admin);
    // No `format`: the worker detects it, as for an upload that does not say.
    const id = await uploadReport(t, bearer(admin), product.id, readFileSync(corpusPath(name)), {
      filename: name,
    });
    const report = await waitForReport(t, bearer(admin), id);
    if (expected.failure) {
      expect(report).toMatchObject({ status: 'failed', failure_code: expected.failure.code });
      return;
    }
    expect(report).toMatchObject({
      status: 'completed',
      failure_code: null,
      counts: { new: expected.findings, results: expected.findings },
    });
    const res = await bearer(admin)
      .apply(request(t.url).get(`/api/v1/reports/${id}`))
      .expect(200);
    const warnings = (res.body as { data: { warnings: Warning[] } }).data.warnings;
    expect(
      Object.fromEntries(warnings.filter((w) => !w.result_stored).map((w) => [w.code, w.count])),
    ).toEqual(expected.skipped);
    expect(
      Object.fromEntries(warnings.filter((w) => w.result_stored).map((w) => [w.code, w.count])),
    ).toEqual(expected.ignored);
  });
});
