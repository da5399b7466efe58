import { bearer } from '../support/catalog';
import { FindingPage, listFindings, freshProduct } from '../support/findings-seed';
import { Login } from '../support/sessions';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { ReportView, uploadReport, waitForReport } from '../support/reports';
import { TestApp } from '../support/test-app';
import { fixture } from '@platform/report-parsing/testing';

/**
 * The hand-written all-cases SARIF goes through the real upload route and worker; what is
 * stored and served by GET /api/v1/findings must show every severity fallback, every location
 * kind, the identity merges of the spec's table and the upload-parameter fallbacks.
 */
type Finding = FindingPage['items'][number];

let t: TestApp;
let admin: Login;
let stack: IngestionStack;
let report: ReportView;
let findings: Finding[];

function locationOf(f: Finding): Record<string, unknown> {
  return f.location as Record<string, unknown>;
}

function byDescription(prefix: string): Finding {
  const hits = findings.filter((f) => String(f.description).startsWith(prefix));
  if (hits.length !== 1) throw new Error(`expected one finding "${prefix}", got ${hits.length}`);
  return hits[0];
}

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
  ({ t, admin } = stack);
  const product = await freshProduct(t, admin);
  const sarif = fixture('sarif-all-cases.sarif');
  const id = await uploadReport(t, bearer(admin), product.id, sarif, {
    filename: 'all-cases.sarif',
    fields: { engine: 'upload-engine', engine_version: '9.9', commit_id: 'upload-commit' },
  });
  report = await waitForReport(t, bearer(admin), id);
  findings = (await listFindings(t, bearer(admin), { product_id: product.id, limit: 500 })).items;
}, 60_000);
afterAll(() => stack.close());

describe('Report normalization - /api/v1/products/{product_id}/reports (POST)', () => {
  it('completes and folds results with equal identities into one finding', () => {
    expect(report.status).toBe('completed');
    expect(report.counts.results).toBeGreaterThan(report.counts.new);
    expect(findings).toHaveLength(report.counts.new);
  });

  it.each([
    ['Explicit word on the result', 'LOW'],
    ['Score on the result', 'CRITICAL'],
    ['Severity word on the rule', 'CRITICAL'],
    ['Score on the rule', 'HIGH'],
    ['Result level error', 'HIGH'],
    ['Rule level note', 'LOW'],
    ['Value userInput flows to exec().', 'MEDIUM'],
    ['Level overridden by the invocation', 'HIGH'],
    ['From an extension', 'MEDIUM'],
  ])('stores the severity fallback of "%s" as %s', (description, severity) => {
    expect(byDescription(description).severity).toBe(severity);
  });

  it('stores code locations with path, line range and snippet', () => {
    expect(byDescription('Explicit word on the result')).toMatchObject({
      identity_kind: 'code',
      location: {
        file_path: 'src/a.c',
        start_line: 10,
        end_line: 12,
        snippet: '  strcpy(dst, src);',
      },
    });
  });

  it('keeps one web finding for one address reported two ways', () => {
    const web = findings.filter((f) => f.identity_kind === 'web');
    expect(web).toHaveLength(1);
    expect(String(locationOf(web[0]).url).toLowerCase()).toBe(
      'https://shop.example.com/app/login?next=/admin',
    );
  });

  it('keeps one network finding per CVE and port, and one per port without CVE', () => {
    const withCve = findings.filter((f) => f.cve === 'CVE-2023-0001');
    expect(withCve).toHaveLength(1);
    expect(withCve[0]).toMatchObject({
      identity_kind: 'network_cve',
      location: { port: 5432, protocol: 'tcp', service: 'postgresql' },
      component: 'postgresql',
      component_version: '14.1',
    });
    const tls = findings.filter(
      (f) =>
        f.identity_kind === 'network' &&
        locationOf(f).ip === '10.0.0.7' &&
        locationOf(f).port === 5432,
    );
    expect(tls).toHaveLength(1);
  });

  it('stores extended report fields without making them part of identity', () => {
    expect(byDescription('Suppressed and fingerprinted')).toMatchObject({
      suppressed: true,
      baseline_state: 'unchanged',
      kind: 'review',
      cwe: ['CWE-22'],
      fingerprints: {
        fingerprints: { 'matchHash/v1': 'abc' },
        partial_fingerprints: { primaryLocationLineHash: 'def:1' },
      },
    });
  });

  it('takes scanner, version and revision from the report, else from the upload fields', () => {
    expect(byDescription('Explicit word on the result')).toMatchObject({
      scanner: 'CaseScanner',
      scanner_version: '3.1.4',
      revision: 'abc123def',
    });
    expect(byDescription('line one')).toMatchObject({
      scanner: 'SecondTool',
      scanner_version: '9.9',
      revision: 'upload-commit',
    });
  });
});

describe('Report normalization, SonarQube export without a format field', () => {
  it('detects the format and stores the mapped severities, hotspots and suppressions', async () => {
    const product = await freshProduct(t, admin);
    const json = fixture('sonarqube-issues.json');
    const id = await uploadReport(t, bearer(admin), product.id, json, {
      filename: 'issues.json',
    });
    const sonar = await waitForReport(t, bearer(admin), id);
    expect(sonar).toMatchObject({ status: 'completed', format: 'sonarqube' });
    const items = (await listFindings(t, bearer(admin), { product_id: product.id, limit: 500 }))
      .items;
    const byRule = (rule: string) => items.find((f) => f.rule_id === rule);
    expect(byRule('java:S2076')).toMatchObject({ severity: 'CRITICAL' });
    expect(byRule('java:S1481')).toMatchObject({ severity: 'LOW', suppressed: true });
    expect(byRule('java:S1135')).toMatchObject({ severity: 'MEDIUM', kind: 'pass' });
    expect(byRule('xml:S125')).toMatchObject({ severity: 'INFO' });
    expect(byRule('java:S4721')).toMatchObject({ severity: 'HIGH' });
  });
});
