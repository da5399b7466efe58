import request from 'supertest';
import { bearer } from '../support/catalog';
import { withDb } from '../support/findings-db';
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

async function storedCoverage(reportId: string): Promise<unknown> {
  return withDb(t, async (db) => {
    const res = await db.query('SELECT coverage FROM reports WHERE id = $1', [reportId]);
    return (res.rows[0] as { coverage: unknown }).coverage;
  });
}

const at = (uri: string, startLine: number) => [
  { physicalLocation: { artifactLocation: { uri, uriBaseId: 'SRC' }, region: { startLine } } },
];

describe('Report coverage - /api/v1/products/{product_id}/reports (POST)', () => {
  it('stores what each run looked at with the completion, per run, with its results not stored', async () => {
    const product = await freshProduct(t, admin);
    const sarif = JSON.stringify({
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'Analyzer' } },
          originalUriBaseIds: { SRC: { uri: 'file:///builds/app/src/' } },
          artifacts: [
            { location: { uri: 'main.c', uriBaseId: 'SRC' } },
            { location: { uri: 'util\u0000.c', uriBaseId: 'SRC' } },
            { location: { uri: 'https://App.Example.test/health' } },
          ],
          invocations: [
            {
              executionSuccessful: true,
              toolExecutionNotifications: [
                {
                  level: 'error',
                  message: { text: 'could not parse' },
                  locations: [
                    { physicalLocation: { artifactLocation: { uri: 'gen.c', uriBaseId: 'SRC' } } },
                  ],
                },
              ],
            },
          ],
          results: [
            { ruleId: 'R1', message: { text: 'found' }, locations: at('main.c', 4) },
            { ruleId: 'R1', message: { text: 'bad line' }, locations: at('main.c', 0) },
          ],
        },
        {
          tool: { driver: { name: 'Nothing found' } },
          artifacts: [{ location: { uri: 'clean.py' } }],
          results: [],
        },
      ],
    });
    const id = await uploadReport(t, bearer(admin), product.id, sarif);
    expect(await waitForReport(t, bearer(admin), id)).toMatchObject({
      status: 'completed',
      counts: { new: 1, results: 1 },
    });
    const [finding] = await withDb(
      t,
      async (db) =>
        (await db.query('SELECT file_path FROM findings WHERE product_id = $1', [product.id])).rows,
    );
    expect(finding).toEqual({ file_path: 'main.c' });
    expect(await storedCoverage(id)).toEqual([
      {
        scanner: 'Analyzer',
        incomplete: false,
        // Spelled as the finding's file_path; a NUL is stored as U+FFFD, like every report text.
        files: ['main.c', 'util\uFFFD.c'],
        failed_files: ['gen.c'],
        hosts: ['app.example.test'],
        skipped: 1,
      },
      {
        scanner: 'Nothing found',
        incomplete: false,
        files: ['clean.py'],
        failed_files: [],
        hosts: [],
        skipped: 0,
      },
    ]);
    const res = await bearer(admin)
      .apply(request(t.url).get(`/api/v1/reports/${id}`))
      .expect(200);
    expect(res.body.data).not.toHaveProperty('coverage');
  });

  it('a SonarQube export: its file components, incomplete when it is one page of several', async () => {
    const product = await freshProduct(t, admin);
    const page = JSON.stringify({
      paging: { pageIndex: 1, pageSize: 1, total: 3 },
      issues: [{ key: 'k1', rule: 'java:S1', component: 'shop:src/A.java', line: 2, message: 'm' }],
      components: [
        { key: 'shop', qualifier: 'TRK' },
        { key: 'shop:src/A.java', qualifier: 'FIL', path: 'src/A.java' },
      ],
    });
    const id = await uploadReport(t, bearer(admin), product.id, page, { filename: 'issues.json' });
    expect(await waitForReport(t, bearer(admin), id)).toMatchObject({ status: 'completed' });
    expect(await storedCoverage(id)).toEqual([
      {
        scanner: 'SonarQube',
        incomplete: true,
        files: ['src/A.java'],
        failed_files: [],
        hosts: [],
        skipped: 0,
      },
    ]);
  });

  it('a failed report has no coverage', async () => {
    const product = await freshProduct(t, admin);
    const id = await uploadReport(t, bearer(admin), product.id, '{"version":"2.0.0","runs":[]}');
    expect(await waitForReport(t, bearer(admin), id)).toMatchObject({ status: 'failed' });
    expect(await storedCoverage(id)).toBeNull();
  });
});
