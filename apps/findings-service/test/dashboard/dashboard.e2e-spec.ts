import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/app/clock';
import { bearer } from '../support/catalog';
import { freshProduct, keyWith, Product, seedFindings } from '../support/findings-seed';
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

let t: TestApp;
let admin: Login;
let product: Product;
let clockAt: Date;
const ids: Record<string, string> = {};

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = new Date('2031-07-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => at(ms).toISOString();
const NOW = 21 * DAY;

const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;
const patch = (id: string, status: string) =>
  bearer(admin)
    .apply(request(t.url).patch(`/api/v1/findings/${id}`).send({ status }))
    .expect(200);
const get = (path: string, query: Record<string, string | number> = {}) =>
  bearer(admin)
    .apply(request(t.url).get(path).query(query))
    .expect(200)
    .then((res) => res.body.data);

/**
 * One project with: A (HIGH, 14 d) fixed on day 10 — in time; B (HIGH) fixed on day 20 — late;
 * C (CRITICAL, 7 d) overdue with an open breached violation; D (MEDIUM, 30 d) on track; E (LOW)
 * new; F (MEDIUM) fixed on day 5 without a clock. All detected on day 0; now is day 21.
 */
beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  clockAt = T0;
  jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(clockAt.getTime()));
  product = await freshProduct(t, admin);
  const created = iso(0);
  [ids.A, ids.B, ids.C, ids.D, ids.E, ids.F] = await seedFindings(t, product, [
    { severity: 'HIGH', sla_days: 14, status: 'confirmed', created_at: created },
    { severity: 'HIGH', sla_days: 14, status: 'confirmed', created_at: created },
    { severity: 'CRITICAL', sla_days: 7, status: 'confirmed', created_at: created },
    { severity: 'MEDIUM', sla_days: 30, status: 'confirmed', created_at: created },
    { severity: 'LOW', sla_days: 90, status: 'new', created_at: created },
    { severity: 'MEDIUM', sla_days: 30, status: 'new', created_at: created },
  ]);
  for (const k of ['A', 'B', 'C', 'D']) await patch(ids[k], 'in_progress');
  clockAt = at(5 * DAY);
  await patch(ids.F, 'fixed');
  clockAt = at(10 * DAY);
  await patch(ids.A, 'fixed');
  clockAt = at(20 * DAY);
  await patch(ids.B, 'fixed');
  await sql(
    `INSERT INTO sla_violations (finding_id, project_id, product_id, severity, kind, due_at, opened_at)
     SELECT id, project_id, product_id, severity, 'breached', sla_due_at, $2 FROM findings
      WHERE id = $1`,
    [ids.C, at(7 * DAY + HOUR)],
  );
  clockAt = at(NOW);
});
afterAll(async () => {
  jest.restoreAllMocks();
  await t.close();
});

describe('Dashboard - /api/v1/dashboard/sla-compliance (GET)', () => {
  it('counts open findings and clocks now, fixes in time and MTTR from the action log', async () => {
    const data = await get('/api/v1/dashboard/sla-compliance', {
      project_id: product.project_id,
      days: 30,
    });
    expect(data).toMatchObject({
      generated_at: iso(NOW),
      from: iso(NOW - 30 * DAY),
      to: iso(NOW),
      days: 30,
    });
    expect(data.overall).toEqual({
      open: 3,
      attention: 3,
      in_progress: 2,
      open_by_severity: { CRITICAL: 1, HIGH: 0, MEDIUM: 1, LOW: 1, INFO: 0 },
      sla_tracked: 2,
      sla_on_track: 1,
      sla_approaching: 0,
      sla_overdue: 1,
      sla_paused: 0,
      violations_open_approaching: 0,
      violations_open_breached: 1,
      fixed: 3,
      fixed_with_deadline: 2,
      fixed_in_time: 1,
      compliance_percent: 50,
      // (10 d + 20 d + 5 d) / 3 in hours
      mttr_hours: 280,
    });
    const bySeverity = Object.fromEntries(
      data.by_severity.map((s: { severity: string }) => [s.severity, s]),
    );
    expect(Object.keys(bySeverity)).toEqual(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO']);
    expect(bySeverity.HIGH).toMatchObject({
      fixed: 2,
      fixed_in_time: 1,
      compliance_percent: 50,
      mttr_hours: 360,
    });
    expect(bySeverity.CRITICAL).toMatchObject({
      open: 1,
      sla_overdue: 1,
      violations_open_breached: 1,
      fixed: 0,
      mttr_hours: null,
    });
    expect(bySeverity.MEDIUM).toMatchObject({
      open: 1,
      sla_on_track: 1,
      fixed: 1,
      fixed_with_deadline: 0,
      compliance_percent: null,
      mttr_hours: 120,
    });

    // A shorter period leaves out the fixes before it; a filter narrows everything.
    const week = await get('/api/v1/dashboard/sla-compliance', {
      project_id: product.project_id,
      days: 7,
    });
    expect(week.overall).toMatchObject({ open: 3, fixed: 1, fixed_in_time: 0, mttr_hours: 480 });
    const high = await get('/api/v1/dashboard/sla-compliance', {
      product_id: product.id,
      severity: 'high',
    });
    expect(high.by_severity.map((s: { severity: string }) => s.severity)).toEqual(['HIGH']);
    expect(high.overall).toMatchObject({ open: 0, fixed: 2 });
    await bearer(admin)
      .apply(request(t.url).get('/api/v1/dashboard/sla-compliance').query({ severity: 'urgent' }))
      .expect(400);
  });
});

describe('Dashboard - /api/v1/dashboard/sla-trend (GET)', () => {
  it('one point per UTC day (and severity): violations opened, fixes, fixes in time, MTTR', async () => {
    const data = await get('/api/v1/dashboard/sla-trend', {
      project_id: product.project_id,
      days: 30,
    });
    expect(data).toMatchObject({ days: 30, group_by: 'none', to: iso(NOW) });
    expect(data.points).toHaveLength(30);
    expect(data.points[0]).toMatchObject({
      date: iso(NOW - 30 * DAY).slice(0, 10),
      timestamp: at(NOW - 30 * DAY).getTime(),
    });
    const byDate = Object.fromEntries(
      data.points.map((p: { date: string }) => [p.date, p] as const),
    );
    const day = (n: number) => byDate[iso(n * DAY).slice(0, 10)];
    expect(day(5)).toMatchObject({ fixed: 1, fixed_with_deadline: 0, mttr_hours: 120 });
    expect(day(7)).toMatchObject({ breached_opened: 1, fixed: 0 });
    expect(day(10)).toMatchObject({ fixed: 1, fixed_in_time: 1, compliance_percent: 100 });
    expect(day(20)).toMatchObject({ fixed: 1, fixed_in_time: 0, compliance_percent: 0 });
    expect(day(1)).toMatchObject({ fixed: 0, breached_opened: 0, mttr_hours: null });

    const grouped = await get('/api/v1/dashboard/sla-trend', {
      project_id: product.project_id,
      days: 30,
      group_by: 'severity',
    });
    expect(grouped.points).toHaveLength(30 * 5);
    expect(
      grouped.points
        .filter((p: { fixed: number }) => p.fixed > 0)
        .map((p: { date: string; severity: string }) => [p.date, p.severity]),
    ).toEqual([
      [iso(5 * DAY).slice(0, 10), 'MEDIUM'],
      [iso(10 * DAY).slice(0, 10), 'HIGH'],
      [iso(20 * DAY).slice(0, 10), 'HIGH'],
    ]);
  });
});

describe('Dashboard tool - /api/v1/{DASHBOARD_TOOL_SEGMENT}/... (GET)', () => {
  it('flat rows per project and product (epoch ms timestamps), every one listed', async () => {
    const projects = await get('/api/v1/grafana/projects/stats', { days: 30 });
    expect(Array.isArray(projects)).toBe(true);
    const row = projects.find((r: { project_id: string }) => r.project_id === product.project_id);
    expect(row).toMatchObject({
      timestamp: at(NOW).getTime(),
      open: 3,
      open_critical: 1,
      sla_overdue: 1,
      violations_open_breached: 1,
      fixed: 3,
      fixed_in_time: 1,
      compliance_percent: 50,
      mttr_hours: 280,
    });
    for (const value of Object.values(row)) expect(typeof value).not.toBe('object');

    const empty = await freshProduct(t, admin);
    const products = await get('/api/v1/grafana/products/stats');
    expect(products.find((r: { product_id: string }) => r.product_id === product.id)).toMatchObject(
      { project_id: product.project_id, product_name: product.name, open: 3, fixed: 3 },
    );
    expect(products.find((r: { product_id: string }) => r.product_id === empty.id)).toMatchObject({
      open: 0,
      fixed: 0,
      compliance_percent: null,
      mttr_hours: null,
    });
  });

  it('sla/metrics: a time series, one row per UTC day and severity', async () => {
    const rows = await get('/api/v1/grafana/sla/metrics', { days: 30 });
    expect(rows).toHaveLength(30 * 5);
    const tenth = rows.find(
      (r: { time: string; severity: string }) => r.time === iso(10 * DAY) && r.severity === 'HIGH',
    );
    expect(tenth).toMatchObject({ timestamp: at(10 * DAY).getTime() });
    expect(tenth.fixed).toBeGreaterThanOrEqual(1);
  });

  it('the segment is a setting (DASHBOARD_TOOL_SEGMENT); a reserved one fails the start', async () => {
    const key = await keyWith(t, admin, [{ permission: 'read_metrics', level: 'global' }]);
    const other = await startTestApp({ DASHBOARD_TOOL_SEGMENT: 'metabase' }, { db: t.db });
    try {
      await key.apply(request(other.url).get('/api/v1/metabase/projects/stats')).expect(200);
      await key.apply(request(other.url).get('/api/v1/grafana/projects/stats')).expect(404);
    } finally {
      await other.close();
    }
    await expect(
      startTestApp({ DASHBOARD_TOOL_SEGMENT: 'findings' }, { db: t.db }),
    ).rejects.toThrow(/DASHBOARD_TOOL_SEGMENT/);
    await expect(
      startTestApp({ DASHBOARD_TOOL_SEGMENT: 'Graf/ana' }, { db: t.db }),
    ).rejects.toThrow(/DASHBOARD_TOOL_SEGMENT/);
  });
});
