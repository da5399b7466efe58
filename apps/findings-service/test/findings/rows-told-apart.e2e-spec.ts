import request from 'supertest';
import { addMember, bearer } from '../support/catalog';
import { freshProduct, listFindings, Product } from '../support/findings-seed';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { freshUser, login, Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

/**
 * Rows a list can tell apart (issue 25): the rule's short title (never the message), the
 * location in one line, the assignee by name; the creation by import is the first entry of
 * a finding's history.
 */
let stack: IngestionStack;
let t: TestApp;
let admin: Login;
let product: Product;
let reportId: string;

const COOKIE_MESSAGE = "A cookie was detected without setting the 'secure' flag. The 'secure' flag";
const sarif = JSON.stringify({
  version: '2.1.0',
  runs: [
    {
      tool: {
        driver: {
          name: 'semgrep',
          version: '1.0.0',
          rules: [
            {
              id: 'cookie-missing-secure',
              name: 'CookieMissingSecure',
              shortDescription: { text: 'Cookie without Secure flag\nsecond line' },
            },
            { id: 'aws-access-token', name: 'AWS access token' },
          ],
        },
      },
      results: [
        ...[12, 40].map((line) => ({
          ruleId: 'cookie-missing-secure',
          level: 'warning',
          message: { text: `${COOKIE_MESSAGE} at ${line}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: 'src/app/session.ts' },
                region: { startLine: line, endLine: line + 2 },
              },
            },
          ],
        })),
        {
          ruleId: 'aws-access-token',
          message: { text: 'AWS key leaked' },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: 'config/.env' },
                region: { startLine: 3 },
              },
            },
          ],
        },
        {
          ruleId: 'open-port',
          level: 'error',
          message: { text: 'open port' },
          properties: { host: 'db.internal', port: 5432, protocol: 'tcp' },
        },
      ],
    },
  ],
});

type Row = Record<string, unknown> & { id: string; rule_id: string };
let rows: Row[];
const byRule = (rule: string) => rows.filter((r) => r.rule_id === rule);

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
  ({ t, admin } = stack);
  product = await freshProduct(t, admin);
  reportId = await uploadReport(t, bearer(admin), product.id, sarif);
  expect((await waitForReport(t, bearer(admin), reportId)).status).toBe('completed');
  rows = (await listFindings(t, bearer(admin), { product_id: product.id, limit: 50 }))
    .items as Row[];
}, 60_000);
afterAll(() => stack.close());

describe('Rows told apart - /api/v1/findings (GET)', () => {
  it('gives each row its rule title (short description, else name, else id), never the message', () => {
    expect(byRule('cookie-missing-secure').map((r) => r.rule_title)).toEqual([
      'Cookie without Secure flag',
      'Cookie without Secure flag',
    ]);
    expect(byRule('aws-access-token')[0]?.rule_title).toBe('AWS access token');
    expect(byRule('open-port')[0]?.rule_title).toBe('open-port');
  });

  it('labels the location in one line: path:start-end for code, host:port/protocol for network', () => {
    const labels = rows.map((r) => (r.location as { label: string }).label).sort();
    expect(labels).toEqual([
      'config/.env:3',
      'db.internal:5432/tcp',
      'src/app/session.ts:12-14',
      'src/app/session.ts:40-42',
    ]);
  });

  it('names the assignee by e-mail and display name, in the list and the finding', async () => {
    const user = await freshUser(t, admin);
    const analyst = { ...(await login(t, user.email, user.password)), email: user.email };
    await addMember(t, bearer(admin), product.project_id, analyst.userId, 'analyst');
    const id = byRule('open-port')[0]!.id;
    const patched = await bearer(admin)
      .apply(request(t.url).patch(`/api/v1/findings/${id}`).send({ assignee_id: analyst.userId }))
      .expect(200);
    expect(patched.body.data.assignee).toEqual({
      id: analyst.userId,
      email: analyst.email,
      display_name: expect.any(String),
    });
    const listed = await listFindings(t, bearer(admin), { product_id: product.id, limit: 50 });
    const row = listed.items.find((r) => r.id === id)!;
    expect(row.assignee).toMatchObject({ id: analyst.userId, email: analyst.email });
    expect(listed.items.filter((r) => r.id !== id).every((r) => r.assignee === null)).toBe(true);
  });

  it('starts each history with its creation by the import, naming the report', async () => {
    for (const row of rows) {
      const log = await bearer(admin)
        .apply(request(t.url).get(`/api/v1/findings/${row.id}/actions`))
        .expect(200);
      expect(log.body.data[0]).toMatchObject({
        action: 'created',
        actor: { type: 'system', id: null, label: 'ingestion' },
        from: null,
        to: { status: 'new', severity: row.severity, report_id: reportId },
      });
    }
  });

  it('a second sighting writes no second creation', async () => {
    const again = await uploadReport(t, bearer(admin), product.id, sarif);
    expect((await waitForReport(t, bearer(admin), again)).counts.new).toBe(0);
    const id = byRule('aws-access-token')[0]!.id;
    const log = await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${id}/actions`))
      .expect(200);
    expect(log.body.data.filter((a: { action: string }) => a.action === 'created')).toHaveLength(1);
  });
});
