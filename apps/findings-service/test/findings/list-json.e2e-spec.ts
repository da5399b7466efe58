import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { bearer } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { seedFindings, startWithProduct, type Product } from '../support/findings-seed';
import type { Login } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { insertProviderRow } from '../tickets/support/provider-row';

// The bytes of a list page (issue 34: the list path's allocations were cut without changing
// its JSON): one finding with every field the list shows filled — dates with microseconds,
// text that JSON must escape, arrays, jsonb, the assignee, the ticket, the suppression rule —
// and one with every nullable field empty, compared as the response's exact text.
jest.setTimeout(120_000);

let t: TestApp;
let admin: Login;
let product: Product;
let full: string;
let bare: string;
let rule: string;
let ticket: string;
let assignee: { email: string; display_name: string };
let projectName: string;

const TEXT = 'quote " backslash \\ tab \t newline \n nul-free ünïcödé ✓ 🔐 \u2028 </script>';

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
  const providerId = await insertProviderRow(t);
  [full, bare] = (await seedFindings(t, product, [
    {
      title: `Full ${TEXT}`,
      description: `Described ${TEXT}`,
      rule_id: 'rule-full',
      severity: 'CRITICAL',
      status: 'risk_accepted',
      host: 'db.prod.example.com',
      ip: '10.0.0.7',
      file_path: 'src/ünï/db.ts',
      service: 'postgres',
      cve: 'CVE-2024-1234',
      cwe: ['CWE-89', 'CWE-20'],
      component: 'pg',
      component_version: '8.11.0',
      scanner: 'semgrep',
      tags: ['pci', 'team "a"'],
      report_tags: ['owasp'],
      enrichment_tags: ['internet-facing'],
      sla_days: 7,
      baseline_state: 'unchanged',
      kind: 'fail',
      suppressed: true,
      created_at: '2026-02-03T04:05:06.789123Z',
      last_seen_at: '2026-05-06T07:08:09.000001Z',
    },
    {
      title: 'Bare',
      severity: 'LOW',
      sla_days: null,
      created_at: '2026-01-02T03:04:05Z',
      scanner: 'trivy',
    },
  ])) as [string, string];
  rule = randomUUID();
  ticket = randomUUID();
  assignee = await withDb(t, async (db) => {
    await db.query(
      `INSERT INTO suppression_rules (id, project_id, name, query) VALUES ($1, $2, $3, 'x')`,
      [rule, product.project_id, `Rule ${TEXT}`],
    );
    await db.query(
      `INSERT INTO tickets (id, project_id, installed_plugin_id, task_id, task_key, url, status,
              raw_status, origin, label, status_synced_at)
       VALUES ($1, $2, $3, 'task-9', 'SEC-9', 'https://jira.example.com/browse/SEC-9',
               'in_progress', 'In Progress', 'created', 'findsvc-SEC-9', '2026-11-01T10:00:00Z')`,
      [ticket, product.project_id, providerId],
    );
    await db.query(
      `INSERT INTO finding_tickets (finding_id, ticket_id, linked_at)
       VALUES ($1, $2, '2026-11-02T08:00:00Z')`,
      [full, ticket],
    );
    await db.query(
      `UPDATE findings SET rule_name = 'Rule name', rule_title = 'Rule title',
              status_changed_at = '2026-03-04T05:06:07.123456Z', port = 5432, protocol = 'tcp',
              url = NULL, start_line = 42, end_line = 44, snippet = $2,
              logical_location = 'Db.query', score = 9.5, scanner_version = '1.2.3',
              revision = 'abc123', sla_started_at = '2026-03-01T00:00:00Z',
              sla_paused_at = '2026-03-04T05:06:07.5Z', sla_due_at = '2026-03-08T00:00:00Z',
              assignee_id = $3, triage_comment = $2,
              risk_accepted_until = '2027-01-01T00:00:00Z', waiting_reason = 'vendor',
              waiting_until = '2026-12-24T18:00:00.999Z',
              fingerprints = '{"primary": "abc", "nested": {"n": 1.5, "list": [1, null, "x"]}}',
              sources = '{"trivy": {"scanner": "trivy", "rule_id": "T-1", "score": 5}}',
              first_seen_at = '2026-02-03T04:05:06.789Z', updated_at = '2026-06-07T08:09:10.11Z',
              suppression_rule_id = $4, suppressed_at = '2026-06-01T00:00:00Z'
        WHERE id = $1`,
      [full, `line 1\n  "two" ${TEXT}`, admin.userId, rule],
    );
    await db.query(`UPDATE findings SET updated_at = '2026-01-02T03:04:05Z' WHERE id = $1`, [bare]);
    const projects = await db.query<{ name: string }>('SELECT name FROM projects WHERE id = $1', [
      product.project_id,
    ]);
    projectName = projects.rows[0]?.name ?? '';
    const users = await db.query<{ email: string; display_name: string }>(
      'SELECT email, display_name FROM users WHERE id = $1',
      [admin.userId],
    );
    return users.rows[0] as { email: string; display_name: string };
  });
});
afterAll(() => t.close());

function expectedPage(): string {
  const names = {
    project_id: product.project_id,
    project_name: projectName,
    product_id: product.id,
    product_name: product.name,
  };
  return JSON.stringify({
    data: {
      items: [
        {
          id: full,
          ...names,
          identity_kind: 'code',
          rule_id: 'rule-full',
          rule_name: 'Rule name',
          rule_title: 'Rule title',
          title: `Full ${TEXT}`,
          description: `Described ${TEXT}`,
          severity: 'CRITICAL',
          status: 'risk_accepted',
          status_changed_at: '2026-03-04T05:06:07.123Z',
          baseline_state: 'unchanged',
          kind: 'fail',
          suppressed: true,
          location: {
            label: 'db.prod.example.com:5432/tcp',
            file_path: 'src/ünï/db.ts',
            start_line: 42,
            end_line: 44,
            snippet: `line 1\n  "two" ${TEXT}`,
            logical_location: 'Db.query',
            host: 'db.prod.example.com',
            ip: '10.0.0.7',
            port: 5432,
            protocol: 'tcp',
            service: 'postgres',
            url: null,
          },
          cve: 'CVE-2024-1234',
          cwe: ['CWE-89', 'CWE-20'],
          component: 'pg',
          component_version: '8.11.0',
          score: 9.5,
          scanner: 'semgrep',
          scanner_version: '1.2.3',
          revision: 'abc123',
          tags: ['pci', 'team "a"'],
          report_tags: ['owasp'],
          enrichment_tags: ['internet-facing'],
          sla_days: 7,
          sla_started_at: '2026-03-01T00:00:00.000Z',
          sla_paused_at: '2026-03-04T05:06:07.500Z',
          sla_due_at: '2026-03-08T00:00:00.000Z',
          assignee_id: admin.userId,
          assignee: { id: admin.userId, ...assignee },
          comment: `line 1\n  "two" ${TEXT}`,
          risk_accepted_until: '2027-01-01T00:00:00.000Z',
          waiting_reason: 'vendor',
          waiting_until: '2026-12-24T18:00:00.999Z',
          fingerprints: { nested: { n: 1.5, list: [1, null, 'x'] }, primary: 'abc' },
          sources: {
            trivy: { score: 5, rule_id: 'T-1', scanner: 'trivy' },
            semgrep: {
              scanner: 'semgrep',
              scanner_version: '1.2.3',
              scanned_at: '2026-05-06T07:08:09.000Z',
              rule_id: 'rule-full',
              cve: 'CVE-2024-1234',
              score: 9.5,
              description: `Described ${TEXT}`,
            },
          },
          first_seen_at: '2026-02-03T04:05:06.789Z',
          last_seen_at: '2026-05-06T07:08:09.000Z',
          created_at: '2026-02-03T04:05:06.789Z',
          updated_at: '2026-06-07T08:09:10.110Z',
          ticket_key: 'SEC-9',
          ticket_status: 'in_progress',
          ticket_url: 'https://jira.example.com/browse/SEC-9',
          merged_into_id: null,
          merged_at: null,
          suppression_rule: {
            id: rule,
            name: `Rule ${TEXT}`,
            suppressed_at: '2026-06-01T00:00:00.000Z',
          },
        },
        {
          id: bare,
          ...names,
          identity_kind: 'code',
          rule_id: 'rule-1',
          rule_name: null,
          rule_title: 'rule-1',
          title: 'Bare',
          description: 'seeded finding',
          severity: 'LOW',
          status: 'new',
          status_changed_at: null,
          baseline_state: null,
          kind: 'fail',
          suppressed: false,
          location: {
            label: '',
            file_path: null,
            start_line: null,
            end_line: null,
            snippet: null,
            logical_location: null,
            host: null,
            ip: null,
            port: null,
            protocol: null,
            service: null,
            url: null,
          },
          cve: null,
          cwe: [],
          component: null,
          component_version: null,
          score: null,
          scanner: 'trivy',
          scanner_version: null,
          revision: null,
          tags: [],
          report_tags: [],
          enrichment_tags: [],
          sla_days: null,
          sla_started_at: null,
          sla_paused_at: null,
          sla_due_at: null,
          assignee_id: null,
          assignee: null,
          comment: null,
          risk_accepted_until: null,
          waiting_reason: null,
          waiting_until: null,
          fingerprints: {},
          sources: {
            trivy: {
              scanner: 'trivy',
              scanner_version: null,
              scanned_at: '2026-01-02T03:04:05.000Z',
              rule_id: 'rule-1',
              cve: null,
              score: null,
              description: 'seeded finding',
            },
          },
          first_seen_at: '2026-01-02T03:04:05.000Z',
          last_seen_at: '2026-01-02T03:04:05.000Z',
          created_at: '2026-01-02T03:04:05.000Z',
          updated_at: '2026-01-02T03:04:05.000Z',
          ticket_key: null,
          ticket_status: null,
          ticket_url: null,
          merged_into_id: null,
          merged_at: null,
          suppression_rule: null,
        },
      ],
      next_cursor: null,
    },
  });
}

describe('List findings - the page as bytes', () => {
  it('is exactly the JSON of every field kind, filled and empty (suppressed included)', async () => {
    const res = await bearer(admin)
      .apply(
        request(t.url)
          .get('/api/v1/findings')
          .query({ product_id: product.id, suppression: 'include', limit: 50 }),
      )
      .expect(200)
      .expect('content-type', 'application/json; charset=utf-8');
    expect(res.text).toBe(expectedPage());
  });
});
