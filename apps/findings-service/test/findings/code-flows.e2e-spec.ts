import request from 'supertest';
import { bearer } from '../support/catalog';
import { freshProduct, listFindings, Product } from '../support/findings-seed';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import type { Login } from '../support/sessions';
import type { TestApp } from '../support/test-app';

/**
 * What the scanner said besides the location (issue 25, docs/findings-service/sarif.md,
 * Related locations and code flows): SARIF relatedLocations and codeFlows are stored by the
 * set-based ingestion and shown on GET /api/v1/findings/{id}, not in the list.
 */
let stack: IngestionStack;
let t: TestApp;
let admin: Login;
let product: Product;

const at = (uri: string, line: number, text?: string): object => ({
  physicalLocation: { artifactLocation: { uri }, region: { startLine: line } },
  ...(text === undefined ? {} : { message: { text } }),
});

function codeql(opts: { sinkLine: number; flows: boolean }): string {
  return JSON.stringify({
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'CodeQL', rules: [{ id: 'js/sql-injection' }] } },
        results: [
          {
            ruleId: 'js/sql-injection',
            level: 'error',
            message: { text: 'This query depends on a [user-provided value](1).' },
            locations: [at('src/db.js', 40)],
            partialFingerprints: { primaryLocationLineHash: 'abc:1' },
            ...(opts.flows
              ? {
                  relatedLocations: [{ id: 1, ...at('src/routes.js', 12, 'user-provided value') }],
                  codeFlows: [
                    {
                      threadFlows: [
                        {
                          locations: [
                            { location: at('src/routes.js', 12, 'req.query.id') },
                            { location: at('src/db.js', opts.sinkLine, 'id') },
                          ],
                        },
                      ],
                    },
                  ],
                }
              : {}),
          },
        ],
      },
    ],
  });
}

async function ingest(text: string): Promise<void> {
  const id = await uploadReport(t, bearer(admin), product.id, text);
  expect((await waitForReport(t, bearer(admin), id)).status).toBe('completed');
}

async function theFinding(): Promise<Record<string, unknown>> {
  const rows = (await listFindings(t, bearer(admin), { product_id: product.id })).items;
  expect(rows).toHaveLength(1);
  const row = rows[0] as Record<string, unknown>;
  expect(row).not.toHaveProperty('code_flows');
  expect(row).not.toHaveProperty('related_locations');
  const res = await bearer(admin)
    .apply(request(t.url).get(`/api/v1/findings/${String(row.id)}`))
    .expect(200);
  return res.body.data as Record<string, unknown>;
}

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
  ({ t, admin } = stack);
  product = await freshProduct(t, admin);
}, 60_000);
afterAll(() => stack.close());

describe('Related locations and code flows - /api/v1/findings/{id} (GET)', () => {
  it('shows the related locations with their ids and the code flows with ordered steps', async () => {
    await ingest(codeql({ sinkLine: 39, flows: true }));
    const f = await theFinding();
    expect(f.related_locations).toEqual([
      { id: 1, path: 'src/routes.js', start_line: 12, message: 'user-provided value' },
    ]);
    expect(f.code_flows).toEqual([
      {
        thread_flows: [
          {
            steps: [
              { step: 1, path: 'src/routes.js', start_line: 12, message: 'req.query.id' },
              { step: 2, path: 'src/db.js', start_line: 39, message: 'id' },
            ],
          },
        ],
      },
    ]);
  });

  it('takes the flows of a later sighting, and keeps them when a sighting has none', async () => {
    await ingest(codeql({ sinkLine: 41, flows: true }));
    const changed = await theFinding();
    const steps = (changed.code_flows as { thread_flows: { steps: unknown[] }[] }[])[0]
      .thread_flows[0].steps;
    expect(steps[1]).toMatchObject({ step: 2, start_line: 41 });

    await ingest(codeql({ sinkLine: 41, flows: false }));
    const kept = await theFinding();
    expect(kept.code_flows).toEqual(changed.code_flows);
    expect(kept.related_locations).toEqual(changed.related_locations);
  });

  it('gives empty lists for a finding whose report had neither', async () => {
    const other = await freshProduct(t, admin);
    const id = await uploadReport(
      t,
      bearer(admin),
      other.id,
      codeql({ sinkLine: 1, flows: false }),
    );
    expect((await waitForReport(t, bearer(admin), id)).status).toBe('completed');
    const [row] = (await listFindings(t, bearer(admin), { product_id: other.id })).items as {
      id: string;
    }[];
    const res = await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${row.id}`))
      .expect(200);
    expect(res.body.data.related_locations).toEqual([]);
    expect(res.body.data.code_flows).toEqual([]);
  });
});
