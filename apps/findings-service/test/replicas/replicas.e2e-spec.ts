import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@platform/testing';
import { Client } from 'pg';
import request from 'supertest';
import { publisherKey } from '@platform/plugin-protocol/testing';
import { loadFindingsConfig } from '../../src/app/config/findings-config';
import {
  BUILD_TIMEOUT_MS,
  buildCatalogPlugin,
  type SignedCatalogPlugin,
} from '../catalog-plugins/support/catalog-plugin-lab';
import {
  networkSarif,
  seedInstalledPlugin,
} from '../catalog-plugins/support/installed-plugin-seed';
import { startMetabaseStandIn, type MetabaseStandIn } from '../catalog-plugins/support/stand-ins';
import { bearer } from '../support/catalog';
import { freshProduct, type Product } from '../support/findings-seed';
import { uploadReport, waitForReport } from '../support/reports';
import { loginAdmin, type Login } from '../support/sessions';
import { syntheticSarif } from '../support/synthetic-sarif';
import { ADMIN_EMAIL } from '../support/test-app';
import { seedRecordingChannel } from './channel-seed';
import {
  startReplicaStack,
  type ApiReplica,
  type ReplicaStack,
  type WorkerReplica,
} from './replica-stack';

/**
 * Two API and two worker processes of the findings service (the real entry points) with one
 * PostgreSQL database, one Redis and one plugin runner, as a deployment with two replicas of
 * each runs them. Requests go to both APIs in turn; the periodic work (the deadline check,
 * the notification feed) must run on one worker only, and one API and the leading worker
 * killed (SIGKILL) in the middle of ingestion must lose nothing and do nothing twice.
 */
// Five Node processes boot from TypeScript sources beside the other test files: 20-40 s on the
// 2-core machine alone, 80 s seen under a load of 16; the flows wait on periodic tasks and on
// the expiry of a dead worker's claims.
const BOOT_TIMEOUT_MS = 180_000;
jest.setTimeout(120_000);

/** Sign-in attempts per minute and client address (RATE_LIMIT_AUTH), one spent by the admin. */
const AUTH_LIMIT = 6;

let stack: ReplicaStack;
let db: Client;
let admin: Login;
let product: Product;
let dir: string;
let recordFile: string;
const publisher = publisherKey();
/** The CMDB enricher (a catalog plugin, built once into the component cache). */
let cmdb: SignedCatalogPlugin;
/** Its CMDB: a Metabase stand-in that records every table read. */
let metabase: MetabaseStandIn;
const CMDB_KEY = 'mb_replicas_key_1';

const api = (i: number): ApiReplica => stack.apis[i % stack.apis.length];
/** The deadline check's line (`sla-check: ...`), one per run. */
const slaRuns = (w: WorkerReplica) => w.process.output().split('sla-check: ').length - 1;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'findings-replicas-'));
  recordFile = join(dir, 'delivered-keys');
  const starting = startReplicaStack({
    apiCount: 2,
    workerCount: 2,
    env: {
      RATE_LIMIT_AUTH: String(AUTH_LIMIT),
      // A dead worker's ingestion job is taken over after about 2 s.
      INGEST_LOCK_MS: '2000',
      SLA_CHECK_INTERVAL_SECONDS: '1',
      NOTIFICATION_FEED_INTERVAL_MS: '300',
      NOTIFICATION_QUIET_SECONDS: '1',
      NOTIFICATION_RECONCILE_INTERVAL_MS: '1000',
      NOTIFICATION_LEASE_SECONDS: '5',
    },
  });
  [cmdb, stack] = await Promise.all([
    buildCatalogPlugin('cmdb-enricher', publisher.privateKey).catch(async (error: unknown) => {
      await (await starting).close();
      throw error;
    }),
    starting,
  ]);
  metabase = await startMetabaseStandIn(
    {
      databaseId: 3,
      tableId: 17,
      columns: ['ip_address', 'owner', 'env'],
      rows: [
        ['10.30.0.1', 'team-web', 'prod'],
        ['10.30.0.2', 'team-db', 'staging'],
      ],
    },
    CMDB_KEY,
  );
  db = new Client({ connectionString: stack.db.url });
  await db.connect();
  admin = await loginAdmin(api(0).t);
  product = await freshProduct(api(1).t, admin);
  await seedRecordingChannel(db, product.project_id, recordFile);
}, BOOT_TIMEOUT_MS + BUILD_TIMEOUT_MS);

afterAll(async () => {
  await db?.end();
  await stack?.close();
  await metabase?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Idempotency keys the channel was asked to deliver, in order (one line per call). */
const recordedKeys = () =>
  existsSync(recordFile) ? readFileSync(recordFile, 'utf8').split('\n').filter(Boolean) : [];

/** The project's deliveries, once none is left to send. */
async function settledDeliveries(
  expected: (rows: { kind: string }[]) => void = () => undefined,
): Promise<{ idempotency_key: string; kind: string }[]> {
  return waitFor(
    async () => {
      const { rows } = await db.query<{ idempotency_key: string; kind: string; state: string }>(
        `SELECT d.idempotency_key, n.kind, d.state FROM notification_deliveries d
           JOIN notifications n ON n.id = d.notification_id WHERE d.project_id = $1`,
        [product.project_id],
      );
      // What must be there before "every delivery delivered" means anything: none yet is not
      // settled (the feed seals a notification after its quiet time, later under load).
      expected(rows);
      const open = rows.filter((r) => r.state !== 'delivered');
      if (open.length > 0) throw new Error(`not delivered yet: ${JSON.stringify(open)}`);
      return rows;
    },
    { timeoutMs: 30_000, intervalMs: 250, what: 'every notification delivered' },
  );
}

/** The findings of a product. */
async function findingsOf(productId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id::text FROM findings WHERE product_id = $1`,
    [productId],
  );
  return rows.map((r) => r.id);
}

describe('Two API and two worker replicas of the findings service', () => {
  it('the sign-in limit is one budget for both APIs: the 429 comes at the same total count', async () => {
    const statuses: number[] = [];
    // The admin's sign-in in beforeAll spent one attempt of the budget.
    for (let i = 1; i < AUTH_LIMIT + 2; i += 1) {
      const res = await request(api(i).t.url)
        .post('/api/v1/auth/local/login')
        .send({ login: ADMIN_EMAIL, password: 'not-the-password-1' });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, AUTH_LIMIT - 1)).toEqual(Array(AUTH_LIMIT - 1).fill(401));
    // Per-process counters would let each replica allow the whole budget again.
    expect(statuses.slice(AUTH_LIMIT - 1)).toEqual([429, 429]);
  });

  it('uploads through both APIs, the deadline check on the leader only: each breach opened, logged and notified once', async () => {
    // Two products of the project (the channel's), one report each through each API.
    const products = [product, await freshProduct(api(0).t, admin, product.project_id)];
    const reports = await Promise.all(
      products.map((p, i) => uploadReport(api(i).t, bearer(admin), p.id, syntheticSarif(6))),
    );
    for (const [i, id] of reports.entries()) {
      expect(await waitForReport(api(i + 1).t, bearer(admin), id)).toMatchObject({
        status: 'completed',
      });
    }
    // Taken into work through both APIs: their deadline clocks start.
    const ids = [...(await findingsOf(products[0].id)), ...(await findingsOf(products[1].id))];
    expect(ids).toHaveLength(12);
    for (const [i, id] of ids.entries()) {
      for (const status of ['confirmed', 'in_progress']) {
        await bearer(admin)
          .apply(request(api(i).t.url).patch(`/api/v1/findings/${id}`).send({ status }))
          .expect(200);
      }
    }
    // Their deadlines passed (the clock moved on by the SLA days): an hour ago.
    const moved = await db.query(
      `UPDATE findings SET sla_due_at = now() - interval '1 hour'
        WHERE id = ANY($1::uuid[]) AND sla_due_at IS NOT NULL`,
      [ids],
    );
    expect(moved.rowCount).toBe(ids.length);

    const runsBefore = stack.workers.map(slaRuns);
    const violations = await waitFor(
      async () => {
        const { rows } = await db.query<{ finding_id: string; notified: boolean }>(
          `SELECT finding_id::text, notified_at IS NOT NULL AS notified FROM sla_violations
            WHERE finding_id = ANY($1::uuid[]) AND kind = 'breached'`,
          [ids],
        );
        expect(rows.filter((r) => r.notified)).toHaveLength(ids.length);
        return rows;
      },
      { timeoutMs: 20_000, intervalMs: 250, what: 'the breaches opened and notified' },
    );
    // Three more periods: no check opens, logs or notifies anything again.
    await waitFor(
      () =>
        expect(
          Math.max(...stack.workers.map(slaRuns)) - Math.max(...runsBefore),
        ).toBeGreaterThanOrEqual(4),
      { timeoutMs: 20_000, intervalMs: 250, what: 'four more deadline checks' },
    );
    expect(violations).toHaveLength(ids.length);
    const { rows: logged } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM finding_actions
        WHERE action = 'sla_breached' AND finding_id = ANY($1::uuid[])`,
      [ids],
    );
    expect(logged[0].n).toBe(ids.length);

    // The periodic work ran on one worker only: the other never logged a check.
    const runs = stack.workers.map(slaRuns);
    expect(runs.filter((n) => n > 0)).toHaveLength(1);

    // New findings and the breach: one notification each, each delivery sent once.
    const deliveries = await settledDeliveries((rows) => {
      expect(rows.filter((d) => d.kind === 'sla_breached')).toHaveLength(1);
      expect(rows.filter((d) => d.kind === 'new_findings').length).toBeGreaterThanOrEqual(1);
    });
    expect(deliveries.filter((d) => d.kind === 'sla_breached')).toHaveLength(1);
    expect(deliveries.filter((d) => d.kind === 'new_findings').length).toBeGreaterThanOrEqual(1);
    const keys = recordedKeys();
    expect(keys.sort()).toEqual(deliveries.map((d) => d.idempotency_key).sort());
  });

  it('enrichment: reports through both APIs are enriched once each, by whichever worker takes the job', async () => {
    const enricher = await seedInstalledPlugin(
      { config: loadFindingsConfig(stack.env, 'api') },
      cmdb,
      {
        publicKeyPem: publisher.publicKeyPem,
        settings: {
          cmdb_base_url: metabase.url,
          database_id: 3,
          servers_table_id: 17,
          column_to_tag_key: { owner: 'owner', env: 'environment' },
        },
        secrets: { api_token: CMDB_KEY },
      },
    );
    try {
      const products = [
        await freshProduct(api(0).t, admin, product.project_id),
        await freshProduct(api(1).t, admin, product.project_id),
      ];
      const ips = ['10.30.0.1', '10.30.0.2', '10.99.0.9'];
      const before = metabase.requests.length;
      const reports = await Promise.all(
        products.map((p, i) =>
          uploadReport(
            api(i).t,
            bearer(admin),
            p.id,
            networkSarif(3, (n) => ips[n] as string),
          ),
        ),
      );
      for (const [i, id] of reports.entries()) {
        expect(await waitForReport(api(i + 1).t, bearer(admin), id)).toMatchObject({
          status: 'completed',
        });
      }
      const tagged = () =>
        db.query<{ product_id: string; ip: string; enrichment_tags: string[] }>(
          `SELECT product_id::text, ip, enrichment_tags FROM findings
            WHERE product_id = ANY($1::uuid[]) ORDER BY product_id, ip`,
          [products.map((p) => p.id)],
        );
      await waitFor(
        async () => {
          const { rows } = await tagged();
          expect(rows.filter((r) => r.enrichment_tags.length > 0)).toHaveLength(4);
        },
        { timeoutMs: 60_000, intervalMs: 250, what: 'both reports enriched' },
      );
      // Two more deadline checks: a second run of a job would have read the table again.
      const runs = Math.max(...stack.workers.map(slaRuns));
      await waitFor(
        () => expect(Math.max(...stack.workers.map(slaRuns))).toBeGreaterThanOrEqual(runs + 2),
        { timeoutMs: 20_000, intervalMs: 250, what: 'two more deadline checks' },
      );
      // One job per report and enricher: the table read once for each report.
      expect(metabase.requests.slice(before)).toEqual(['POST /api/dataset', 'POST /api/dataset']);
      const { rows } = await tagged();
      expect(rows.map((r) => [r.ip, r.enrichment_tags])).toEqual(
        products.flatMap(() => [
          ['10.30.0.1', ['environment:prod', 'owner:team-web']],
          ['10.30.0.2', ['environment:staging', 'owner:team-db']],
          ['10.99.0.9', []],
        ]),
      );
    } finally {
      // The storm below has no addresses to enrich.
      await db.query(`UPDATE installed_plugins SET enabled = false WHERE id = $1`, [enricher]);
    }
  });

  it('one API and the leading worker killed (SIGKILL) mid-ingestion: every report processed once, every notification delivered once', async () => {
    const leader = stack.workers.find((w) => slaRuns(w) > 0) as WorkerReplica;
    const follower = stack.workers.find((w) => w !== leader) as WorkerReplica;
    const [, doomedApi] = stack.apis;
    const COUNT = 6;
    // Two batches of the ingestion each (2 000 results per batch).
    const RESULTS = 3_000;
    const report = syntheticSarif(RESULTS);
    const products: Product[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      products.push(await freshProduct(api(i).t, admin, product.project_id));
    }
    // Uploads two at a time through the APIs in turn; API 2 dies after the first answer, with
    // one upload possibly still in flight; the leading worker once a report of the storm is done.
    let answered = 0;
    const ids: string[] = [];
    let storming = true;
    const killLeader = waitFor(
      async () => {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM reports WHERE product_id = ANY($1::uuid[]) AND status = 'completed'`,
          [products.map((p) => p.id)],
        );
        if (storming && rows[0].n === 0) throw new Error('no report done yet');
        await leader.process.kill();
      },
      { timeoutMs: 60_000, intervalMs: 50, what: 'the first report of the storm done' },
    );
    try {
      for (let i = 0; i < COUNT; i += 2) {
        const pair = products.slice(i, i + 2).map(async (p, j) => {
          const id = await balanced(i + j, (r) => uploadReport(r.t, bearer(admin), p.id, report));
          answered += 1;
          if (answered === 1) await doomedApi.process.kill();
          return id;
        });
        ids.push(...(await Promise.all(pair)));
      }
    } finally {
      // (a failed storm still ends the waiting)
      storming = false;
      await killLeader;
    }
    expect((await doomedApi.process.ended).signal).toBe('SIGKILL');
    expect((await leader.process.ended).signal).toBe('SIGKILL');
    expect(cut.filter((name) => name !== doomedApi.name)).toEqual([]);

    // Nothing lost: every report the service took (a cut upload may have been taken before its
    // retry) is processed, by the surviving worker after the dead one's job lock expired.
    for (const id of ids) {
      expect(await waitForReport(api(0).t, bearer(admin), id, 60_000)).toMatchObject({
        status: 'completed',
        counts: expect.objectContaining({ results: RESULTS }),
      });
    }
    // A report the killed API recorded without adding its job (its client, cut off, uploaded
    // again) is given the job by the leader's `report-requeue` task once it is 30 s old
    // (stranded-reports.ts): the follower leads now, so every report ends completed.
    await waitFor(
      async () => {
        const { rows: reports } = await db.query<{ status: string }>(
          `SELECT status FROM reports WHERE product_id = ANY($1::uuid[])`,
          [products.map((p) => p.id)],
        );
        expect(reports.filter((r) => r.status !== 'completed')).toEqual([]);
      },
      { timeoutMs: 75_000, intervalMs: 500, what: 'every recorded report completed' },
    );
    // Nothing twice: each result one finding, each finding created (and logged) once.
    const { rows: created } = await db.query<{ findings: number; logged: number; twice: number }>(
      `SELECT count(*)::int AS findings,
              (SELECT count(*)::int FROM finding_actions a JOIN findings f ON f.id = a.finding_id
                WHERE a.action = 'created' AND f.product_id = ANY($1::uuid[])) AS logged,
              (SELECT count(*)::int FROM (SELECT a.finding_id FROM finding_actions a
                 JOIN findings f ON f.id = a.finding_id
                WHERE a.action = 'created' AND f.product_id = ANY($1::uuid[])
                GROUP BY a.finding_id HAVING count(*) > 1) x) AS twice
         FROM findings WHERE product_id = ANY($1::uuid[])`,
      [products.map((p) => p.id)],
    );
    expect(created[0]).toEqual({ findings: COUNT * RESULTS, logged: COUNT * RESULTS, twice: 0 });

    // The follower took the lead: its deadline checks and notification feed run now.
    await waitFor(() => expect(slaRuns(follower)).toBeGreaterThan(0), {
      timeoutMs: 20_000,
      what: 'the follower running the periodic tasks',
    });
    // Every finding of the project in exactly one sealed new-findings notification.
    await waitFor(
      async () => {
        const { rows } = await db.query<{ notified: number; findings: number }>(
          `SELECT (SELECT coalesce(sum(finding_count), 0)::int FROM notifications
                    WHERE project_id = $1 AND kind = 'new_findings' AND state <> 'collecting') AS notified,
                  (SELECT count(*)::int FROM findings WHERE project_id = $1) AS findings`,
          [product.project_id],
        );
        expect(rows[0].notified).toBe(rows[0].findings);
      },
      { timeoutMs: 30_000, intervalMs: 250, what: 'every new finding in a sealed notification' },
    );
    const deliveries = await settledDeliveries();
    expect(recordedKeys().sort()).toEqual(deliveries.map((d) => d.idempotency_key).sort());
  });
});

/** Replicas whose connection was refused or cut (no HTTP answer) while `balanced` sent. */
const cut: string[] = [];

/**
 * Sends through the replica `i` picks, as a load balancer does: a request without an HTTP
 * answer (connection refused or cut: the replica died) goes to the next live replica, which
 * is recorded in `cut` (the test expects only the replica it killed there).
 */
async function balanced<T>(i: number, send: (replica: ApiReplica) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < stack.apis.length; attempt += 1) {
    const replica = api(i + attempt);
    if (!replica.process.running()) continue;
    try {
      return await send(replica);
    } catch (error) {
      if ((error as { response?: unknown }).response !== undefined) throw error;
      // Node's socket errors come from outside Jest's realm: not `instanceof Error` here.
      const message = String((error as { message?: unknown }).message);
      if (!/ECONNREFUSED|ECONNRESET|EPIPE|socket hang up/.test(message)) throw error;
      cut.push(replica.name);
    }
  }
  throw new Error('no live API replica');
}
