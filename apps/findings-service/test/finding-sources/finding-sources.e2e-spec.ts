import request from 'supertest';
import { publisherKey } from '@platform/plugin-protocol/testing';
import type { ServiceProcess } from '@platform/testing';
import { EnrichmentQueue } from '../../src/modules/enrichment/enrichment-queue.provider';
import { FindingSourcesService } from '../../src/modules/finding-sources/finding-sources.service';
import {
  BUILD_TIMEOUT_MS,
  RUNNER_TOKEN,
  buildCatalogPlugin,
  startRunnerProcess,
  type SignedCatalogPlugin,
} from '../catalog-plugins/support/catalog-plugin-lab';
import { seedInstalledPlugin } from '../catalog-plugins/support/installed-plugin-seed';
import {
  startFleetStandIn,
  type FleetHost,
  type FleetStandIn,
} from '../catalog-plugins/support/stand-ins';
import { bearer, createProject } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

const publisher = publisherKey();
// Real runner and stand-in on a shared 2-core machine: calls can queue behind others.
jest.setTimeout(120_000);

let runner: ServiceProcess;
let t: TestApp;
let admin: Login;
let fleet: SignedCatalogPlugin;
let fleetApi: FleetStandIn;
let pluginId: string;
let projectId: string;

const host = (id: number, cves: string[]): FleetHost => ({
  id,
  hostname: `ws-${id}.corp.example`,
  primary_ip: `10.50.0.${id}`,
  software: [
    {
      name: 'openssl',
      version: '3.0.2',
      vulnerabilities: cves.map((cve) => ({ cve, cvss_score: 7.5 })),
    },
  ],
});

beforeAll(async () => {
  fleet = await buildCatalogPlugin('fleet-source', publisher.privateKey);
  const started = await startRunnerProcess();
  runner = started.runner;
  fleetApi = await startFleetStandIn({ hosts: [], token: 'fleet-api-token' });
  t = await startTestApp({
    PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
    PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
  });
  admin = await loginAdmin(t);
  projectId = (await createProject(t, bearer(admin))).id;
  pluginId = await seedInstalledPlugin(t, fleet, {
    publicKeyPem: publisher.publicKeyPem,
    settings: {
      fleet_base_url: fleetApi.url,
      target_project_id: projectId,
      default_product_name: 'Endpoints',
    },
    secrets: { api_token: 'fleet-api-token' },
  });
}, 2 * BUILD_TIMEOUT_MS);

afterAll(async () => {
  await t?.close();
  await runner?.stop();
  await fleetApi?.close();
});

const syncNow = () =>
  request(t.url)
    .post(`/api/v1/admin/installed-plugins/${pluginId}/sync-now`)
    .set('Authorization', `Bearer ${admin.token}`);

interface Row {
  host: string;
  cve: string;
  status: string;
  product: string;
}

/** The project's findings: host, CVE, status, product name. */
function findings(): Promise<Row[]> {
  return withDb(t, async (db) => {
    const res = await db.query<Row>(
      `SELECT f.host, f.cve, f.status, p.name AS product FROM findings f
         JOIN products p ON p.id = f.product_id
        WHERE f.project_id = $1 ORDER BY f.host, f.cve`,
      [projectId],
    );
    return res.rows;
  });
}

describe('finding source (fleet-source plugin in a real runner, FleetDM-style stand-in)', () => {
  it('sync-now creates findings for every host and vulnerable software', async () => {
    fleetApi.hosts = [host(1, ['CVE-2022-3602', 'CVE-2023-0286']), host(2, ['CVE-2024-3094'])];
    const res = await syncNow().expect(200);
    expect(res.body.data).toMatchObject({
      plugin_id: pluginId,
      outcome: 'ok',
      trigger: 'manual',
      nodes: 2,
      findings_seen: 3,
      findings_created: 3,
      findings_closed: 0,
      reconciliation_skipped: false,
      error_code: null,
    });
    expect(await findings()).toEqual([
      { host: 'ws-1.corp.example', cve: 'CVE-2022-3602', status: 'new', product: 'Endpoints' },
      { host: 'ws-1.corp.example', cve: 'CVE-2023-0286', status: 'new', product: 'Endpoints' },
      { host: 'ws-2.corp.example', cve: 'CVE-2024-3094', status: 'new', product: 'Endpoints' },
    ]);
    // The same answer again creates nothing.
    expect((await syncNow().expect(200)).body.data).toMatchObject({
      findings_created: 0,
      findings_closed: 0,
    });
  });

  it('a second poll with a host gone closes that host’s findings, marked automatic in the action log', async () => {
    fleetApi.hosts = [host(1, ['CVE-2022-3602', 'CVE-2023-0286'])];
    const res = await syncNow().expect(200);
    expect(res.body.data).toMatchObject({ nodes: 1, findings_closed: 1, nodes_vanished: 1 });
    expect((await findings()).map((f) => [f.host, f.status])).toEqual([
      ['ws-1.corp.example', 'new'],
      ['ws-1.corp.example', 'new'],
      ['ws-2.corp.example', 'fixed'],
    ]);
    const log = await withDb(t, (db) =>
      db.query<{ actor_type: string; actor_label: string; action: string; to_status: string }>(
        `SELECT a.actor_type, a.actor_label, a.action, a.to_value->>'status' AS to_status
           FROM finding_actions a JOIN findings f ON f.id = a.finding_id
          WHERE f.project_id = $1 AND f.host = 'ws-2.corp.example' ORDER BY a.at, a.action`,
        [projectId],
      ),
    );
    expect(log.rows).toEqual([
      {
        actor_type: 'system',
        actor_label: 'finding_source:fleet-source',
        action: 'created',
        to_status: 'new',
      },
      {
        actor_type: 'system',
        actor_label: 'finding_source:fleet-source',
        action: 'status_changed',
        to_status: 'fixed',
      },
    ]);
  });

  it('an empty poll while nodes are recorded closes nothing (reconciliation skipped)', async () => {
    fleetApi.hosts = [];
    const res = await syncNow().expect(200);
    expect(res.body.data).toMatchObject({
      outcome: 'ok',
      nodes: 0,
      findings_closed: 0,
      reconciliation_skipped: true,
    });
    expect((await findings()).map((f) => f.status)).toEqual(['new', 'new', 'fixed']);
  });

  it('a host that comes back renews its fixed findings, marked automatic in the action log', async () => {
    fleetApi.hosts = [host(1, ['CVE-2022-3602', 'CVE-2023-0286']), host(2, ['CVE-2024-3094'])];
    const res = await syncNow().expect(200);
    expect(res.body.data).toMatchObject({ findings_created: 0, findings_closed: 0 });
    expect((await findings()).map((f) => [f.host, f.status])).toEqual([
      ['ws-1.corp.example', 'new'],
      ['ws-1.corp.example', 'new'],
      ['ws-2.corp.example', 'renewed'],
    ]);
    const log = await withDb(t, (db) =>
      db.query<{ actor_type: string; actor_label: string; from_status: string }>(
        `SELECT a.actor_type, a.actor_label, a.from_value->>'status' AS from_status
           FROM finding_actions a JOIN findings f ON f.id = a.finding_id
          WHERE f.project_id = $1 AND f.host = 'ws-2.corp.example' AND a.action = 'renewed'`,
        [projectId],
      ),
    );
    expect(log.rows).toEqual([
      { actor_type: 'system', actor_label: 'finding_source:fleet-source', from_status: 'fixed' },
    ]);
    // Seen once more: already renewed, nothing else is logged.
    await syncNow().expect(200);
    expect((await findings()).map((f) => f.status)).toEqual(['new', 'new', 'renewed']);
    const again = await withDb(t, (db) =>
      db.query(
        `SELECT 1 FROM finding_actions a JOIN findings f ON f.id = a.finding_id
          WHERE f.project_id = $1 AND a.action = 'renewed'`,
        [projectId],
      ),
    );
    expect(again.rowCount).toBe(1);
  });

  it('a failing poll changes nothing and shows the error (answer and sync-status)', async () => {
    fleetApi.hosts = [host(3, ['CVE-2021-44228'])];
    const before = await findings();
    fleetApi.failWith = 503;
    try {
      const res = await syncNow().expect(422);
      expect(res.body.code).toBe('finding_source_poll_failed');
      expect(res.body.error).toContain('HTTP 503');
    } finally {
      fleetApi.failWith = undefined;
    }
    expect(await findings()).toEqual(before);
    const status = await request(t.url)
      .get(`/api/v1/admin/installed-plugins/${pluginId}/sync-status`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(status.body.data.last_sync).toMatchObject({
      outcome: 'failed',
      error_code: 'failed',
      error_message: expect.stringContaining('HTTP 503'),
      findings_created: 0,
      findings_closed: 0,
    });
    expect(status.body.data.last_sync.last_success_at).not.toBeNull();
  });

  it('queues the findings a poll creates for every enabled enricher', async () => {
    const manifest = Buffer.from(
      JSON.stringify({
        id: 'queue-probe-enricher',
        version: '1.0.0',
        capabilities: ['finding_enricher'],
        runtime: 'wasm',
        wit_version: '0.1.0',
        min_service_version: '>=0.33',
        allowed_hosts: [],
        settings: [],
        artifact_sha256: 'c'.repeat(64),
      }),
    );
    const enricherId = await withDb(t, async (db) => {
      const res = await db.query<{ id: string }>(
        `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
                artifact_sha256, manifest, capabilities)
         VALUES ('sideload', 'queue-probe-enricher', 'wasm', true, '1.0.0', $1, $2, '{finding_enricher}')
         RETURNING id`,
        ['c'.repeat(64), manifest],
      );
      return res.rows[0]?.id as string;
    });
    try {
      fleetApi.hosts = [host(1, ['CVE-2022-3602', 'CVE-2023-0286']), host(4, ['CVE-2019-0708'])];
      const res = await syncNow().expect(200);
      expect(res.body.data).toMatchObject({ findings_created: 1 });
      const queue = t.app.get(EnrichmentQueue).queue;
      const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
      const mine = jobs.filter((j) => j.data?.installedPluginId === enricherId);
      expect(mine).toHaveLength(1);
      expect(mine[0]?.data).toMatchObject({
        projectId,
        trigger: 'finding_created',
        findingIds: [expect.any(String)],
      });
      await Promise.all(mine.map((job) => job.remove()));
    } finally {
      await withDb(t, (db) =>
        db.query(`UPDATE installed_plugins SET enabled = false WHERE id = $1`, [enricherId]),
      );
    }
  });

  it('refuses sync-now of something that is not an enabled finding source (404)', async () => {
    const res = await request(t.url)
      .post('/api/v1/admin/installed-plugins/00000000-0000-4000-8000-0000000000f1/sync-now')
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(404);
    expect(res.body.code).toBe('finding_source_not_found');
  });

  it('the schedule polls a source whose last poll is a period old, not before', async () => {
    fleetApi.hosts = [host(1, ['CVE-2022-3602', 'CVE-2023-0286'])];
    const sources = t.app.get(FindingSourcesService);
    const now = new Date();
    expect(await sources.pollDue(now)).toBe(0);
    expect(await sources.pollDue(new Date(now.getTime() + 61 * 60_000))).toBe(1);
    const status = await request(t.url)
      .get(`/api/v1/admin/installed-plugins/${pluginId}/sync-status`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(status.body.data.last_sync).toMatchObject({ outcome: 'ok', trigger: 'schedule' });
  });

  it('the findings a poll inserts take the first matching enabled suppression rule; re-sighted ones are left alone', async () => {
    const rules = `/api/v1/projects/${projectId}/suppression-rules`;
    const rule = async (name: string, query: string, enabled = true) => {
      const res = await request(t.url)
        .post(rules)
        .set('Authorization', `Bearer ${admin.token}`)
        .send({ name, query, enabled })
        .expect(201);
      return (res.body as { data: { id: string } }).data.id;
    };
    const off = await rule('disabled', 'host:ws-9*', false);
    const first = await rule('first', 'cve:CVE-2031-0001 OR component:nothing-such');
    const second = await rule('second', 'host:ws-9.corp.example scanner:*fleet*');
    const resighted = await rule('old one', 'cve:CVE-2022-3602');
    fleetApi.hosts = [host(1, ['CVE-2022-3602']), host(9, ['CVE-2031-0001', 'CVE-2031-0002'])];
    await syncNow().expect(200);
    const rows = await withDb(
      t,
      async (db) =>
        (
          await db.query<{
            host: string;
            cve: string;
            rule: string | null;
            at: boolean;
            logged: unknown;
          }>(
            `SELECT f.host, f.cve, f.suppression_rule_id::text AS rule,
                  f.suppressed_at IS NOT NULL AS at,
                  (SELECT a.to_value->>'suppression_rule_id' FROM finding_actions a
                    WHERE a.finding_id = f.id AND a.action = 'created') AS logged
             FROM findings f WHERE f.project_id = $1 AND f.cve = ANY($2::text[])
            ORDER BY f.host, f.cve`,
            [projectId, ['CVE-2022-3602', 'CVE-2031-0001', 'CVE-2031-0002']],
          )
        ).rows,
    );
    expect(rows).toEqual([
      { host: 'ws-1.corp.example', cve: 'CVE-2022-3602', rule: null, at: false, logged: null },
      { host: 'ws-9.corp.example', cve: 'CVE-2031-0001', rule: first, at: true, logged: first },
      { host: 'ws-9.corp.example', cve: 'CVE-2031-0002', rule: second, at: true, logged: second },
    ]);
    for (const id of [off, first, second, resighted]) {
      await request(t.url)
        .delete(`${rules}/${id}`)
        .set('Authorization', `Bearer ${admin.token}`)
        .expect(204);
    }
  });
});
