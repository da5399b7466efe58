import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/app/clock';
import { Auth, bearer } from '../support/catalog';
import {
  freshMember,
  freshProduct,
  keyWith,
  Product,
  seedFindings,
  startWithProduct,
  type SeedFinding,
} from '../support/findings-seed';
import { Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

/**
 * Group axes and inventory roll-ups (docs/findings-service/groups-and-rollups.md) on real
 * PostgreSQL: counts equal their member lists, a group's or a row's state change gives each
 * member its own entry and clock, the ticket action needs a provider.
 */
let t: TestApp;
let admin: Login;
let product: Product;
let clockAt: Date;

const DAY = 86_400_000;
const T0 = new Date('2031-05-05T10:00:00.000Z');

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
  clockAt = T0;
  jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(clockAt.getTime()));
});
afterAll(async () => {
  jest.restoreAllMocks();
  await t.close();
});

const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;
const get = (auth: Auth, path: string, query: Record<string, unknown> = {}) =>
  auth.apply(request(t.url).get(path).query(query));
const post = (auth: Auth, path: string, body: Record<string, unknown>) =>
  auth.apply(request(t.url).post(path).send(body));
const u = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

interface Page {
  items: { id: string; severity: string; status: string; project_id: string }[];
  next_cursor: string | null;
}
interface Row {
  key: string;
  total: number;
  by_severity: Record<string, number>;
  by_status: Record<string, number>;
  project_id: string | null;
}

/** Every page of a keyset-paged GET, followed to the end. */
async function allPages<T>(auth: Auth, path: string, query: Record<string, unknown>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i += 1) {
    const res = await get(auth, path, { ...query, ...(cursor ? { cursor } : {}) }).expect(200);
    const data = res.body.data as { items: T[]; next_cursor: string | null };
    out.push(...data.items);
    cursor = data.next_cursor;
    if (!cursor) return out;
  }
  throw new Error('more than 100 pages');
}

describe('Group axes - /api/v1/findings/{id}/group-axes', () => {
  it('lists the axes with neighbours in the project, with counts equal to the member lists', async () => {
    const own = await freshProduct(t, admin);
    const other = await freshProduct(t, admin);
    const [pkg, host, cve] = [u('pkg'), u('host'), u('CVE')];
    const [me, samePkgHost, sameCve, sameRule, alone, noValues] = await seedFindings(t, own, [
      { component: pkg, component_version: '1.0', host, cve, scanner: 'trivy', rule_id: 'R1' },
      { component: pkg, component_version: '2.0', host, scanner: 'trivy', rule_id: 'R2' },
      { cve, scanner: 'trivy', rule_id: 'R3' },
      { scanner: 'trivy', rule_id: 'R1' },
      { component: u('pkg'), scanner: 'other', rule_id: 'R1' },
      { scanner: 'lonely', rule_id: u('R') },
    ]);
    // Another project's findings with the same values are not neighbours.
    await seedFindings(t, other, [{ component: pkg, host, cve, scanner: 'trivy', rule_id: 'R1' }]);

    const res = await get(bearer(admin), `/api/v1/findings/${me}/group-axes`).expect(200);
    expect(res.body.data).toEqual({
      finding_id: me,
      axes: [
        { axis: 'package', key: pkg, scanner: null, count: 2, neighbours: 1 },
        { axis: 'host', key: host, scanner: null, count: 2, neighbours: 1 },
        { axis: 'cve', key: cve, scanner: null, count: 2, neighbours: 1 },
        { axis: 'rule', key: 'R1', scanner: 'trivy', count: 2, neighbours: 1 },
      ],
    });
    const members = async (axis: string) =>
      (
        await allPages<{ id: string }>(bearer(admin), `/api/v1/findings/${me}/group-axes/members`, {
          axis,
          limit: 1,
        })
      )
        .map((f) => f.id)
        .sort();
    expect(await members('package')).toEqual([me, samePkgHost].sort());
    expect(await members('host')).toEqual([me, samePkgHost].sort());
    expect(await members('cve')).toEqual([me, sameCve].sort());
    expect(await members('rule')).toEqual([me, sameRule].sort());
    expect(alone).toBeDefined();

    // No neighbours: no axes; no value on the axis: 400; unknown or unreadable: 404.
    const none = await get(bearer(admin), `/api/v1/findings/${noValues}/group-axes`).expect(200);
    expect(none.body.data.axes).toEqual([]);
    const bad = await get(bearer(admin), `/api/v1/findings/${noValues}/group-axes/members`, {
      axis: 'package',
    }).expect(400);
    expect(bad.body.code).toBe('validation_failed');
    await get(bearer(admin), `/api/v1/findings/${randomUUID()}/group-axes`).expect(404);
    const outsider = await freshMember(t, admin, other.project_id, 'viewer');
    await get(bearer(outsider), `/api/v1/findings/${me}/group-axes`).expect(404);
    await get(bearer(admin), `/api/v1/findings/${me}/group-axes/members`, {
      axis: 'nope',
    }).expect(400);
  });

  it('a state change on a group moves every member, each with its own entry and deadline', async () => {
    const own = await freshProduct(t, admin);
    const pkg = u('pkg');
    const [a, b, c, outside] = await seedFindings(t, own, [
      { component: pkg, severity: 'HIGH', status: 'confirmed', sla_days: 14 },
      { component: pkg, severity: 'LOW', status: 'confirmed', sla_days: 90 },
      { component: pkg, severity: 'CRITICAL', status: 'new', sla_days: 7 },
      { component: u('pkg'), status: 'confirmed' },
    ]);
    clockAt = new Date(T0.getTime() + DAY);
    const refused = await post(bearer(admin), '/api/v1/findings/bulk-status', {
      group: { finding_id: a, axis: 'package' },
      status: 'waiting',
    }).expect(400);
    expect(refused.body.code).toBe('bulk_waiting_refused');
    await post(bearer(admin), '/api/v1/findings/bulk-status', {
      group: { finding_id: a, axis: 'package' },
      finding_ids: [a],
      status: 'in_progress',
    }).expect(400);

    const res = await post(bearer(admin), '/api/v1/findings/bulk-status', {
      group: { finding_id: a, axis: 'package' },
      status: 'in_progress',
    }).expect(200);
    expect(res.body.data).toEqual({ matched: 3, changed: 3, violations_closed: 0 });
    const rows = await sql(
      `SELECT id, status, sla_started_at, sla_due_at FROM findings WHERE id = ANY($1::uuid[])`,
      [[a, b, c, outside]],
    );
    const byId = new Map(rows.map((r) => [r['id'], r]));
    const at = (days: number) => new Date(clockAt.getTime() + days * DAY);
    expect(byId.get(a)).toMatchObject({
      status: 'in_progress',
      sla_started_at: clockAt,
      sla_due_at: at(14),
    });
    expect(byId.get(b)).toMatchObject({ status: 'in_progress', sla_due_at: at(90) });
    expect(byId.get(c)).toMatchObject({ status: 'in_progress', sla_due_at: at(7) });
    expect(byId.get(outside)).toMatchObject({ status: 'confirmed', sla_started_at: null });
    const entries = await sql(
      `SELECT finding_id, actor_id, action, to_value FROM finding_actions
        WHERE finding_id = ANY($1::uuid[]) AND action = 'status_changed'`,
      [[a, b, c, outside]],
    );
    expect(entries.map((e) => e['finding_id']).sort()).toEqual([a, b, c].sort());
    for (const e of entries) {
      expect(e).toMatchObject({
        actor_id: admin.userId,
        to_value: expect.objectContaining({ status: 'in_progress' }),
      });
    }
    clockAt = T0;
  });
});

describe('Inventory roll-up - /api/v1/findings/inventory-rollup', () => {
  const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];
  const STATES = ['new', 'confirmed', 'in_progress', 'risk_accepted', 'wont_fix', 'fixed'];

  /** Two projects, three packages on hosts and CVEs, every severity and several states. */
  async function seedInventory(tag: string) {
    const p1 = await freshProduct(t, admin);
    const p2 = await freshProduct(t, admin);
    const pkgs = [u('alpha'), u('beta'), u('gamma')];
    const hosts = [u('h1'), u('h2')];
    const cves = [u('CVE-A'), u('CVE-B')];
    const rows = (n: number, shift: number): SeedFinding[] =>
      Array.from({ length: n }, (_, i) => ({
        component: pkgs[(i + shift) % 3],
        host: hosts[(i * 7 + shift) % 2],
        cve: i % 5 === 0 ? null : cves[(i + shift) % 2],
        severity: SEVERITIES[(i * 3 + shift) % 5],
        status: STATES[(i + shift * 2) % STATES.length],
        tags: [tag],
      }));
    await seedFindings(t, p1, rows(23, 0));
    await seedFindings(t, p2, rows(17, 1));
    // Not tagged: outside the filtered roll-up.
    await seedFindings(t, p1, [{ component: pkgs[0], host: hosts[0], severity: 'CRITICAL' }]);
    return { p1, p2, pkgs, hosts, cves };
  }

  it('row counts equal the counts of their member lists, per axis, with filters and q', async () => {
    const tag = u('inv').toLowerCase();
    const { pkgs } = await seedInventory(tag);
    for (const axis of ['package', 'host', 'cve']) {
      for (const filter of [
        { tags: tag },
        { tags: tag, severity: 'CRITICAL,HIGH,MEDIUM' },
        { tags: tag, q: '-status:fixed' },
      ]) {
        const rows = await allPages<Row>(bearer(admin), '/api/v1/findings/inventory-rollup', {
          axis,
          limit: 1,
          ...filter,
        });
        expect(rows.length).toBeGreaterThan(0);
        let sum = 0;
        for (const row of rows) {
          const members = await allPages<Page['items'][number]>(
            bearer(admin),
            '/api/v1/findings/inventory-rollup/members',
            { axis, key: row.key, limit: 7, ...filter },
          );
          expect(members).toHaveLength(row.total);
          for (const s of SEVERITIES) {
            expect(members.filter((m) => m.severity === s)).toHaveLength(row.by_severity[s] ?? -1);
          }
          for (const [state, n] of Object.entries(row.by_status)) {
            expect(members.filter((m) => m.status === state)).toHaveLength(n);
          }
          expect(Object.values(row.by_severity).reduce((x, y) => x + y, 0)).toBe(row.total);
          const projects = new Set(members.map((m) => m.project_id));
          expect(row.project_id).toBe(projects.size === 1 ? [...projects][0] : null);
          sum += row.total;
        }
        // Every filtered finding with a value on the axis is in exactly one row.
        const list = await allPages<{ cve: string | null }>(bearer(admin), '/api/v1/findings', {
          limit: 500,
          ...filter,
        });
        expect(sum).toBe(axis === 'cve' ? list.filter((f) => f.cve).length : list.length);
        if (axis === 'cve') expect(sum).toBeLessThan(list.length);
      }
    }
    // The untagged finding is counted without the filter.
    const unfiltered = await get(bearer(admin), '/api/v1/findings/inventory-rollup', {
      axis: 'package',
      sort: 'key',
      q: `component:${pkgs[0]}`,
    }).expect(200);
    const tagged = await get(bearer(admin), '/api/v1/findings/inventory-rollup', {
      axis: 'package',
      tags: tag,
      q: `component:${pkgs[0]}`,
    }).expect(200);
    expect(unfiltered.body.data.items[0].total).toBe(tagged.body.data.items[0].total + 1);
  });

  it('leaves out merged and suppressed findings, as the list does (suppression=include brings those back)', async () => {
    const own = await freshProduct(t, admin);
    const pkg = u('pkg');
    const host = u('host');
    const [survivor, merged, suppressed] = await seedFindings(t, own, [
      { component: pkg, host, severity: 'HIGH' },
      { component: pkg, host, severity: 'HIGH' },
      { component: pkg, host, severity: 'LOW' },
      { component: pkg, host, severity: 'LOW' },
    ]);
    await sql(`UPDATE findings SET merged_into_id = $1, merged_at = now() WHERE id = $2`, [
      survivor,
      merged,
    ]);
    await sql(`UPDATE findings SET suppression_rule_id = $1 WHERE id = $2`, [
      randomUUID(),
      suppressed,
    ]);
    const row = async (query: Record<string, string>) =>
      (
        await get(bearer(admin), '/api/v1/findings/inventory-rollup', {
          axis: 'package',
          project_id: own.project_id,
          ...query,
        }).expect(200)
      ).body.data.items as Row[];
    expect((await row({})).map((r) => [r.key, r.total, r.by_severity['HIGH']])).toEqual([
      [pkg, 2, 1],
    ]);
    expect((await row({ suppression: 'include' }))[0]?.total).toBe(3);
    const axes = await get(bearer(admin), `/api/v1/findings/${survivor}/group-axes`).expect(200);
    expect(
      axes.body.data.axes.map((a: { axis: string; count: number }) => [a.axis, a.count]),
    ).toEqual([
      ['package', 2],
      ['host', 2],
    ]);
  });

  it('a package, host or rule longer than an index entry holds is stored, rolled up and grouped', async () => {
    const own = await freshProduct(t, admin);
    // Incompressible, far above the 2 704 bytes of a B-tree entry.
    const long = (prefix: string) => `${prefix}-${randomBytes(3000).toString('hex')}`;
    const [pkg, host, rule] = [long('pkg'), long('host'), long('rule')];
    const [first, second] = await seedFindings(t, own, [
      { component: pkg, host, rule_id: rule, severity: 'HIGH' },
      { component: pkg, host, rule_id: rule, severity: 'LOW' },
      { component: u('short'), host: u('short'), severity: 'LOW' },
    ]);
    for (const [axis, key] of [
      ['package', pkg],
      ['host', host],
    ] as const) {
      const rows = (
        await get(bearer(admin), '/api/v1/findings/inventory-rollup', {
          axis,
          project_id: own.project_id,
          sort: 'total',
        }).expect(200)
      ).body.data.items as Row[];
      expect(rows.map((r) => r.total)).toEqual([2, 1]);
      expect(rows[0]?.key).toBe(key);
      const members = await post(bearer(admin), '/api/v1/findings/inventory-rollup/bulk-status', {
        axis,
        key,
        action: 'wont_fix',
        justification: 'long key',
        filters: { project_id: own.project_id },
      }).expect(200);
      expect(members.body.data.status_change.matched).toBe(2);
    }
    const axes = await get(bearer(admin), `/api/v1/findings/${first}/group-axes`).expect(200);
    expect(
      axes.body.data.axes.map((a: { axis: string; count: number }) => [a.axis, a.count]),
    ).toEqual([
      ['package', 2],
      ['host', 2],
      ['rule', 2],
    ]);
    expect(second).toBeDefined();
  });

  it('sorts by total, key or a severity, pages by cursor, and refuses a foreign cursor', async () => {
    const tag = u('sort').toLowerCase();
    await seedInventory(tag);
    const byTotal = await allPages<Row>(bearer(admin), '/api/v1/findings/inventory-rollup', {
      axis: 'package',
      tags: tag,
      limit: 1,
    });
    expect(byTotal).toHaveLength(3);
    const totals = byTotal.map((r) => r.total);
    expect(totals).toEqual([...totals].sort((x, y) => y - x));
    const byKey = await allPages<Row>(bearer(admin), '/api/v1/findings/inventory-rollup', {
      axis: 'package',
      tags: tag,
      sort: 'key',
      limit: 2,
    });
    expect(byKey.map((r) => r.key)).toEqual(byTotal.map((r) => r.key).sort());
    const byCritical = await allPages<Row>(bearer(admin), '/api/v1/findings/inventory-rollup', {
      axis: 'host',
      tags: tag,
      sort: 'critical',
      order: 'asc',
      limit: 1,
    });
    const crit = byCritical.map((r) => r.by_severity['CRITICAL'] ?? 0);
    expect(crit).toEqual([...crit].sort((x, y) => x - y));

    const first = await get(bearer(admin), '/api/v1/findings/inventory-rollup', {
      axis: 'package',
      tags: tag,
      limit: 1,
    }).expect(200);
    const cursor = first.body.data.next_cursor as string;
    const foreign = await get(bearer(admin), '/api/v1/findings/inventory-rollup', {
      axis: 'host',
      tags: tag,
      cursor,
    }).expect(400);
    expect(foreign.body.code).toBe('finding_cursor_invalid');
    await get(bearer(admin), '/api/v1/findings/inventory-rollup', { axis: 'rule' }).expect(400);
    await get(bearer(admin), '/api/v1/findings/inventory-rollup', {
      axis: 'host',
      q: 'severity:',
    }).expect(400);
  });

  it('bulk status on a row writes one action-log entry per member and touches nothing else', async () => {
    const tag = u('bulk').toLowerCase();
    const { pkgs } = await seedInventory(tag);
    const filter = { tags: tag, status_group: 'attention' };
    const members = await allPages<Page['items'][number]>(
      bearer(admin),
      '/api/v1/findings/inventory-rollup/members',
      { axis: 'package', key: pkgs[1], limit: 500, ...filter },
    );
    expect(members.length).toBeGreaterThan(2);
    const all = await sql(`SELECT id FROM findings WHERE $1 = ANY(tags) OR component = ANY($2)`, [
      tag,
      pkgs,
    ]);
    const before = await sql(
      `SELECT finding_id, count(*)::int AS n FROM finding_actions WHERE finding_id = ANY($1::uuid[]) GROUP BY 1`,
      [all.map((r) => r['id'])],
    );
    expect(before).toEqual([]);

    const body = { axis: 'package', key: pkgs[1], filters: filter, action: 'wont_fix' };
    const noReason = await post(
      bearer(admin),
      '/api/v1/findings/inventory-rollup/bulk-status',
      body,
    ).expect(400);
    expect(noReason.body.code).toBe('justification_required');
    const res = await post(bearer(admin), '/api/v1/findings/inventory-rollup/bulk-status', {
      ...body,
      justification: 'vendored, not reachable',
    }).expect(200);
    expect(res.body.data).toEqual({
      action: 'wont_fix',
      status_change: { matched: members.length, changed: members.length, violations_closed: 0 },
      ticket: null,
    });
    const entries = await sql(
      `SELECT finding_id, action, to_value FROM finding_actions WHERE finding_id = ANY($1::uuid[])`,
      [all.map((r) => r['id'])],
    );
    expect(entries.map((e) => e['finding_id']).sort()).toEqual(members.map((m) => m.id).sort());
    expect(new Set(entries.map((e) => e['finding_id'])).size).toBe(entries.length);
    for (const e of entries) {
      expect(e).toMatchObject({
        action: 'status_changed',
        to_value: expect.objectContaining({ status: 'wont_fix' }),
      });
    }

    // risk_accepted needs its date; waiting is not an action.
    const noDate = await post(bearer(admin), '/api/v1/findings/inventory-rollup/bulk-status', {
      axis: 'package',
      key: pkgs[2],
      filters: { tags: tag },
      action: 'risk_accepted',
      justification: 'x',
    }).expect(400);
    expect(noDate.body.code).toBe('risk_accepted_until_required');
    await post(bearer(admin), '/api/v1/findings/inventory-rollup/bulk-status', {
      axis: 'package',
      key: pkgs[2],
      action: 'waiting',
    }).expect(400);
    const accepted = await post(bearer(admin), '/api/v1/findings/inventory-rollup/bulk-status', {
      axis: 'package',
      key: pkgs[2],
      filters: { tags: tag, status: 'new' },
      action: 'risk_accepted',
      risk_accepted_until: new Date(T0.getTime() + 30 * DAY).toISOString(),
      justification: 'accepted for a month',
    }).expect(200);
    const acceptedRows = await sql(
      `SELECT risk_accepted_until FROM findings WHERE component = $1 AND $2 = ANY(tags) AND status = 'risk_accepted' AND risk_accepted_until IS NOT NULL AND risk_accepted_until = $3`,
      [pkgs[2], tag, new Date(T0.getTime() + 30 * DAY)],
    );
    expect(acceptedRows.length).toBe(accepted.body.data.status_change.changed);
  });

  it('one task for the group: 422 without a provider, 400 across projects; keys get 403', async () => {
    const tag = u('task').toLowerCase();
    const { p1, pkgs } = await seedInventory(tag);
    const spanning = await post(bearer(admin), '/api/v1/findings/inventory-rollup/bulk-status', {
      axis: 'package',
      key: pkgs[0],
      filters: { tags: tag },
      action: 'ticket',
    }).expect(400);
    expect(JSON.stringify(spanning.body)).toContain('projects');
    const none = await post(bearer(admin), '/api/v1/findings/inventory-rollup/bulk-status', {
      axis: 'package',
      key: pkgs[0],
      filters: { tags: tag, project_id: p1.project_id },
      action: 'ticket',
    }).expect(422);
    expect(none.body.code).toBe('ticket_provider_not_configured');

    const key = await keyWith(t, admin, [
      { permission: 'read_findings', level: 'global' },
      { permission: 'write_findings', level: 'global' },
    ]);
    await get(key, '/api/v1/findings/inventory-rollup', { axis: 'host' }).expect(403);
    await get(key, '/api/v1/findings/inventory-rollup/members', { axis: 'host', key: 'x' }).expect(
      403,
    );
    await post(key, '/api/v1/findings/inventory-rollup/bulk-status', {
      axis: 'package',
      key: pkgs[0],
      action: 'wont_fix',
      justification: 'x',
    }).expect(403);
    expect(product).toBeDefined();
  });
});
