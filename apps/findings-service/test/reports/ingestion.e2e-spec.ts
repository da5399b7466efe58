import request from 'supertest';
import { bearer, createProject } from '../support/catalog';
import { findingsOf, withDb } from '../support/findings-db';
import { Login } from '../support/sessions';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { TestApp } from '../support/test-app';
import { fixture } from '@platform/report-parsing/testing';
import { freshProduct } from '../support/findings-seed';

let t: TestApp;
let admin: Login;
let stack: IngestionStack;

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
  ({ t, admin } = stack);
}, 30_000);
afterAll(() => stack.close());

function networkSarif(tool: string, results: object[]): string {
  return JSON.stringify({
    version: '2.1.0',
    runs: [{ tool: { driver: { name: tool, rules: [] } }, results }],
  });
}

function networkResult(ruleId: string, host: string, port: number, cve?: string): object {
  return {
    ruleId,
    level: 'error',
    message: { text: `${ruleId} on ${host}:${port}` },
    locations: [{ physicalLocation: { artifactLocation: { uri: `tcp://${host}:${port}` } } }],
    properties: { host, port, protocol: 'tcp', ...(cve ? { cve } : {}) },
  };
}

describe('Report ingestion - /api/v1/reports/{report_id} (GET)', () => {
  it('ingests the real flawfinder report: 11 new findings with file locations', async () => {
    const product = await freshProduct(t, admin);
    const id = await uploadReport(
      t,
      bearer(admin),
      product.id,
      fixture('flawfinder-vulnerable.sarif'),
    );
    const report = await waitForReport(t, bearer(admin), id);
    expect(report).toMatchObject({
      status: 'completed',
      format: 'sarif',
      scanner: 'Flawfinder',
      counts: { new: 11, updated: 0, renewed: 0, results: 11 },
    });
    const findings = await findingsOf(t, product.id);
    expect(findings).toHaveLength(11);
    expect(findings.every((f) => f.file_path?.endsWith('vulnerable.c') && f.start_line! > 0)).toBe(
      true,
    );
    expect(findings.every((f) => f.status === 'new' && f.sources.Flawfinder)).toBe(true);
    // SLA days come from the project's settings for the finding's severity.
    const high = findings.find((f) => f.severity === 'HIGH');
    expect(high?.sla_days).toBe(14);
  });

  it('re-uploading the same report creates nothing: every finding is updated', async () => {
    const product = await freshProduct(t, admin);
    const first = await uploadReport(
      t,
      bearer(admin),
      product.id,
      fixture('flawfinder-vulnerable.sarif'),
    );
    await waitForReport(t, bearer(admin), first);
    const again = await uploadReport(
      t,
      bearer(admin),
      product.id,
      fixture('flawfinder-vulnerable.sarif'),
    );
    const report = await waitForReport(t, bearer(admin), again);
    expect(report.counts).toEqual({ new: 0, updated: 11, renewed: 0, results: 11, duplicates: 0 });
    expect(await findingsOf(t, product.id)).toHaveLength(11);
  });

  it('turns fixed findings seen again into renewed', async () => {
    const product = await freshProduct(t, admin);
    await waitForReport(
      t,
      bearer(admin),
      await uploadReport(t, bearer(admin), product.id, fixture('flawfinder-vulnerable.sarif')),
    );
    await withDb(t, (db) =>
      db.query(
        `UPDATE findings SET status = 'fixed' WHERE id IN
           (SELECT id FROM findings WHERE product_id = $1 ORDER BY identity_hash LIMIT 3)`,
        [product.id],
      ),
    );
    const id = await uploadReport(
      t,
      bearer(admin),
      product.id,
      fixture('flawfinder-vulnerable.sarif'),
    );
    const report = await waitForReport(t, bearer(admin), id);
    expect(report.counts).toEqual({ new: 0, updated: 8, renewed: 3, results: 11, duplicates: 0 });
    const stored = await findingsOf(t, product.id);
    const renewed = stored.filter((f) => f.status === 'renewed');
    expect(renewed).toHaveLength(3);
    expect(stored.filter((f) => f.status === 'new')).toHaveLength(8);
    // The automatic change is in the action log, marked as done by the system.
    const res = await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${renewed[0].id}/actions`))
      .expect(200);
    const actions = (res.body as { data: Record<string, unknown>[] }).data;
    expect(actions).toContainEqual(
      expect.objectContaining({
        action: 'renewed',
        actor: { type: 'system', id: null, label: 'ingestion', name: null },
        from: { status: 'fixed' },
        to: { status: 'renewed', report_id: id },
      }),
    );
  });

  it('ingests the parsing fixtures (SARIF with many cases, SonarQube issues)', async () => {
    for (const name of ['sarif-all-cases.sarif', 'sonarqube-issues.json']) {
      const product = await freshProduct(t, admin);
      const id = await uploadReport(t, bearer(admin), product.id, fixture(name), {
        filename: name,
      });
      const report = await waitForReport(t, bearer(admin), id);
      expect(report.status).toBe('completed');
      const stored = await findingsOf(t, product.id);
      expect(stored.length).toBe(report.counts.new);
      expect(report.counts.new).toBeGreaterThan(0);
      expect(report.counts.results).toBeGreaterThanOrEqual(report.counts.new);
    }
  });

  it('same CVE on the same port from two scanners is one finding with two sources', async () => {
    const product = await freshProduct(t, admin);
    const a = networkSarif('NetScanA', [networkResult('a-rule', '10.0.0.5', 443, 'CVE-2024-0001')]);
    const b = networkSarif('NetScanB', [
      networkResult('other-rule', '10.0.0.5', 443, 'cve-2024-0001'),
    ]);
    expect(
      (await waitForReport(t, bearer(admin), await uploadReport(t, bearer(admin), product.id, a)))
        .counts.new,
    ).toBe(1);
    const second = await waitForReport(
      t,
      bearer(admin),
      await uploadReport(t, bearer(admin), product.id, b),
    );
    expect(second.counts).toMatchObject({ new: 0, updated: 1 });
    const findings = await findingsOf(t, product.id);
    expect(findings).toHaveLength(1);
    expect(Object.keys(findings[0].sources).sort()).toEqual(['NetScanA', 'NetScanB']);
    expect(findings[0].scanner).toBe('NetScanB');
  });

  it('keeps one full sources entry per scanner through re-sightings (as the API shows them)', async () => {
    const product = await freshProduct(t, admin);
    const withText = (tool: string, text: string, version: string) =>
      JSON.stringify({
        version: '2.1.0',
        runs: [
          {
            tool: { driver: { name: tool, version } },
            results: [
              {
                ruleId: `${tool}-rule`,
                level: 'error',
                message: { text },
                locations: [
                  { physicalLocation: { artifactLocation: { uri: 'tcp://10.9.9.9:22' } } },
                ],
                properties: { host: '10.9.9.9', port: 22, protocol: 'tcp', cve: 'CVE-2024-0002' },
              },
            ],
          },
        ],
      });
    const ingest = async (content: string) => {
      const id = await uploadReport(t, bearer(admin), product.id, content);
      const report = await waitForReport(t, bearer(admin), id);
      expect(report.status).toBe('completed');
      const [finding] = await findingsOf(t, product.id);
      const res = await bearer(admin)
        .apply(request(t.url).get(`/api/v1/findings/${finding.id}`))
        .expect(200);
      const created = await bearer(admin)
        .apply(request(t.url).get(`/api/v1/reports/${id}`))
        .expect(200);
      return {
        finding: res.body.data as { description: string; sources: Record<string, unknown> },
        at: String((created.body as { data: { created_at: string } }).data.created_at),
      };
    };
    const entry = (scanner: string, version: string, at: string, description: string) => ({
      scanner,
      scanner_version: version,
      scanned_at: at,
      rule_id: `${scanner}-rule`,
      cve: 'CVE-2024-0002',
      score: null,
      description,
    });

    const first = await ingest(withText('ScanA', 'open ssh', '1.0'));
    expect(first.finding.sources).toEqual({ ScanA: entry('ScanA', '1.0', first.at, 'open ssh') });

    const again = await ingest(withText('ScanA', 'open ssh', '1.1'));
    expect(again.finding.sources).toEqual({ ScanA: entry('ScanA', '1.1', again.at, 'open ssh') });

    const other = await ingest(withText('ScanB', 'weak kex', '7'));
    expect(other.finding.sources).toEqual({
      ScanA: entry('ScanA', '1.1', again.at, 'open ssh'),
      ScanB: entry('ScanB', '7', other.at, 'weak kex'),
    });

    const changed = await ingest(withText('ScanA', 'open ssh, password auth', '1.2'));
    expect(changed.finding.description).toBe('open ssh'); // the first sighting's text stays
    expect(changed.finding.sources).toEqual({
      ScanA: entry('ScanA', '1.2', changed.at, 'open ssh, password auth'),
      ScanB: entry('ScanB', '7', other.at, 'weak kex'),
    });

    const back = await ingest(withText('ScanA', 'open ssh', '1.3'));
    expect(back.finding.sources).toEqual({
      ScanA: entry('ScanA', '1.3', back.at, 'open ssh'),
      ScanB: entry('ScanB', '7', other.at, 'weak kex'),
    });
  });

  it('same host in two products is two findings', async () => {
    const project = await createProject(t, bearer(admin));
    const one = await freshProduct(t, admin, project.id);
    const two = await freshProduct(t, admin, project.id);
    const report = networkSarif('NetScanA', [networkResult('open-port', 'db.internal', 5432)]);
    for (const product of [one, two]) {
      const done = await waitForReport(
        t,
        bearer(admin),
        await uploadReport(t, bearer(admin), product.id, report),
      );
      expect(done.counts.new).toBe(1);
    }
    const [f1] = await findingsOf(t, one.id);
    const [f2] = await findingsOf(t, two.id);
    expect(f1.identity_hash).toBe(f2.identity_hash);
    expect(f1.id).not.toBe(f2.id);
  });

  it('fails a malformed report with a stable code and the byte offset of the error', async () => {
    const product = await freshProduct(t, admin);
    const id = await uploadReport(t, bearer(admin), product.id, fixture('malformed.sarif'));
    const report = await waitForReport(t, bearer(admin), id);
    expect(report.status).toBe('failed');
    expect(report.failure_code).toBe('report_malformed');
    const offset = fixture('malformed.sarif').indexOf('{\n          "ruleId": "FF1001"');
    expect(report.failure_reason).toBe(
      `the report is not valid JSON (first error at byte ${offset})`,
    );
  });

  it('hides a report from a key without read_reports on its product (404)', async () => {
    const product = await freshProduct(t, admin);
    const id = await uploadReport(
      t,
      bearer(admin),
      product.id,
      fixture('flawfinder-vulnerable.sarif'),
    );
    const sa = await request(t.url)
      .post('/api/v1/admin/service-accounts')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ name: 'reader' })
      .expect(201);
    const other = await freshProduct(t, admin);
    await request(t.url)
      .post(`/api/v1/admin/service-accounts/${sa.body.data.id}/permissions`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ permission: 'read_reports', level: 'product', product_id: other.id })
      .expect(201);
    await request(t.url)
      .get(`/api/v1/reports/${id}`)
      .set('X-API-Key', sa.body.data.api_key)
      .expect(404);
  });
});
