import { MetricsListener } from '@platform/metrics';
import { waitFor } from '@platform/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { BusinessMetricsCollector } from '../../src/api/metrics/business-metrics.collector';
import { bearer } from '../support/catalog';
import { freshProduct, type Product, seedFindings } from '../support/findings-seed';
import { type IngestionStack, startIngestion, startWorker } from '../support/ingestion-env';
import { uploadReport } from '../support/reports';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

async function scrape(url: string): Promise<Sample[]> {
  return parse((await request(url).get('/metrics').expect(200)).text);
}

/** The value of the one sample of `name` whose labels include `labels` (undefined: none). */
function value(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} is ambiguous`);
  return found[0]?.value;
}

const LAST_SUCCESS = 'findsvc_metrics_last_collect_success_timestamp_seconds';
const FAILURES = 'findsvc_metrics_collect_failures_total';

let stack: IngestionStack;
let product: Product;

beforeAll(async () => {
  // No worker: an uploaded report's job stays waiting. The timer collects at start, then hourly.
  stack = await startIngestion({ env: { METRICS_COLLECT_INTERVAL_SECONDS: '3600' } });
  product = await freshProduct(stack.t, stack.admin);
});
afterAll(async () => {
  await stack?.close();
});

const db = () => stack.t.app.get(DataSource);
const collect = () => stack.t.app.get(BusinessMetricsCollector).collector.collect();

async function violation(severity: string, resolved: boolean): Promise<void> {
  await db().query(
    `INSERT INTO sla_violations (finding_id, project_id, product_id, severity, kind, due_at,
       opened_at, resolved_at)
     SELECT id, project_id, product_id, $2, 'breached', now(), now(),
            CASE WHEN $3::boolean THEN now() END
       FROM findings f WHERE product_id = $1 AND NOT EXISTS (
         SELECT 1 FROM sla_violations v WHERE v.finding_id = f.id AND v.resolved_at IS NULL)
      LIMIT 1`,
    [product.id, severity, resolved],
  );
}

describe('Metrics - business figures collected by the API on a timer', () => {
  it('collects once at start, before any scrape asks', async () => {
    const first = await waitFor(
      async () => {
        const v = value(await scrape(stack.t.metricsUrl), LAST_SUCCESS);
        if (!v) throw new Error('not collected yet');
        return v;
      },
      { what: 'the collection at start' },
    );
    expect(Math.abs(first - Date.now() / 1000)).toBeLessThan(120);
  });

  it('shows findings, open violations, queue jobs and pool connections with their labels', async () => {
    await seedFindings(stack.t, product, [
      { severity: 'CRITICAL', status: 'new' },
      { severity: 'CRITICAL', status: 'new' },
      { severity: 'HIGH', status: 'fixed' },
      { severity: 'LOW', status: 'in_progress' },
    ]);
    await violation('HIGH', false);
    await violation('HIGH', false);
    await violation('CRITICAL', true);
    await uploadReport(stack.t, bearer(stack.admin), product.id, '{"version":"2.1.0","runs":[]}');

    const before = Date.now() / 1000;
    expect(await collect()).toBe(true);
    const s = await scrape(stack.t.metricsUrl);
    expect(value(s, 'findsvc_findings', { severity: 'CRITICAL', status: 'new' })).toBe(2);
    expect(value(s, 'findsvc_findings', { severity: 'HIGH', status: 'fixed' })).toBe(1);
    expect(value(s, 'findsvc_findings', { severity: 'LOW', status: 'in_progress' })).toBe(1);
    expect(value(s, 'findsvc_findings', { severity: 'LOW', status: 'new' })).toBeUndefined();
    expect(value(s, 'findsvc_sla_violations_open', { severity: 'HIGH' })).toBe(2);
    expect(value(s, 'findsvc_sla_violations_open', { severity: 'CRITICAL' })).toBe(0);
    expect(value(s, 'findsvc_sla_violations_open', { severity: 'INFO' })).toBe(0);
    expect(value(s, 'findsvc_queue_jobs', { kind: 'report-ingestion', state: 'waiting' })).toBe(1);
    expect(value(s, 'findsvc_queue_jobs', { kind: 'report-ingestion', state: 'failed' })).toBe(0);
    expect(value(s, 'findsvc_queue_jobs', { kind: 'notifications', state: 'waiting' })).toBe(0);
    const open = value(s, 'findsvc_db_connections', { state: 'open' }) ?? 0;
    expect(open).toBeGreaterThanOrEqual(1);
    expect(
      (value(s, 'findsvc_db_connections', { state: 'busy' }) ?? NaN) +
        (value(s, 'findsvc_db_connections', { state: 'idle' }) ?? NaN),
    ).toBe(open);
    expect(value(s, LAST_SUCCESS)).toBeGreaterThanOrEqual(Math.floor(before));
    for (const kind of ['findings', 'sla_violations', 'queue_jobs', 'db_connections']) {
      expect(value(s, FAILURES, { kind })).toBe(0);
    }
  });

  it('keeps the old values of a failed query, counts the failure, and recovers', async () => {
    expect(await collect()).toBe(true);
    const good = await scrape(stack.t.metricsUrl);
    await seedFindings(stack.t, product, [{ severity: 'MEDIUM', status: 'confirmed' }]);
    await violation('LOW', false);
    await db().query('ALTER TABLE sla_violations RENAME TO sla_violations_away');
    try {
      expect(await collect()).toBe(false);
    } finally {
      await db().query('ALTER TABLE sla_violations_away RENAME TO sla_violations');
    }
    const failed = await scrape(stack.t.metricsUrl);
    // The violations kept the values of the last good collection; the other kinds moved on.
    expect(value(failed, 'findsvc_sla_violations_open', { severity: 'HIGH' })).toBe(2);
    expect(value(failed, 'findsvc_sla_violations_open', { severity: 'LOW' })).toBe(0);
    expect(value(failed, 'findsvc_findings', { severity: 'MEDIUM', status: 'confirmed' })).toBe(1);
    expect(value(failed, FAILURES, { kind: 'sla_violations' })).toBe(1);
    expect(value(failed, FAILURES, { kind: 'findings' })).toBe(0);
    expect(value(failed, LAST_SUCCESS)).toBe(value(good, LAST_SUCCESS));

    expect(await collect()).toBe(true);
    const recovered = await scrape(stack.t.metricsUrl);
    expect(value(recovered, 'findsvc_sla_violations_open', { severity: 'LOW' })).toBe(1);
    expect(value(recovered, FAILURES, { kind: 'sla_violations' })).toBe(1);
  });

  it('is not collected by the worker', async () => {
    const worker = await startWorker(stack.t, stack.env.vars);
    try {
      const text = (
        await request(`http://127.0.0.1:${worker.get(MetricsListener).port}`)
          .get('/metrics')
          .expect(200)
      ).text;
      expect(text).toContain('findsvc_build_info');
      expect(text).not.toContain('findsvc_findings');
      expect(text).not.toContain(LAST_SUCCESS);
    } finally {
      await worker.close();
    }
  });
});
