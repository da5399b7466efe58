import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { componentCacheDir } from '@platform/plugin-sdk/build';
import {
  freePort,
  REPOSITORY_ROOT,
  startServiceProcess,
  waitFor,
  type ServiceProcess,
} from '@platform/testing';
import request from 'supertest';
import {
  BUILD_TIMEOUT_MS,
  RUNNER_TOKEN,
  startRunnerProcess,
} from '../catalog-plugins/support/catalog-plugin-lab';
import { networkSarif } from '../catalog-plugins/support/installed-plugin-seed';
import { startMetabaseStandIn, type MetabaseStandIn } from '../catalog-plugins/support/stand-ins';
import { bearer } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { freshProduct } from '../support/findings-seed';
import { startIngestion, type IngestionStack } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';

const run = promisify(execFile);
// Real catalog server, runner, worker and stand-in on a shared 2-core machine.
jest.setTimeout(180_000);

/**
 * The whole path of issue 17's "Done means" for enrichment, through the public routes only: the
 * repository's signed catalog (tools/catalog/local-catalog.mjs, served by serve-catalog.mjs) is
 * the official source; the admin fetches it, installs the CMDB enricher, saves its settings
 * (the secret through `secret_settings`, refused through `settings`), enables it; an uploaded
 * report's findings then get their enrichment tags from the Metabase-style CMDB stand-in.
 */
let work: string;
let catalogServer: ServiceProcess | undefined;
let runner: ServiceProcess | undefined;
let stack: IngestionStack | undefined;
let metabase: MetabaseStandIn | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'p4-marketplace-'));
  await run(
    process.execPath,
    [
      join(REPOSITORY_ROOT, 'tools/catalog/local-catalog.mjs'),
      '--state',
      join(work, 'state'),
      '--out',
      join(work, 'catalog'),
    ],
    {
      timeout: 3 * BUILD_TIMEOUT_MS,
      env: { ...process.env, PLUGIN_COMPONENT_CACHE: componentCacheDir(process.env) },
    },
  );
  const port = await freePort();
  catalogServer = startServiceProcess({
    bundle: join(REPOSITORY_ROOT, 'tools/catalog/serve-catalog.mjs'),
    env: { CATALOG_DIR: join(work, 'catalog'), CATALOG_PORT: String(port) },
  });
  await waitFor(
    async () => {
      await request(`http://127.0.0.1:${port}`).get('/healthz').expect(200);
    },
    { timeoutMs: 10_000, what: 'the catalog server' },
  );
  const started = await startRunnerProcess();
  runner = started.runner;
  metabase = await startMetabaseStandIn(
    {
      databaseId: 5,
      tableId: 9,
      columns: ['ip', 'owner', 'criticality'],
      rows: [
        ['172.16.1.10', 'payments', 'tier-1'],
        ['172.16.1.11', 'intranet', 'tier-3'],
      ],
    },
    'mb-marketplace-key',
  );
  stack = await startIngestion({
    worker: true,
    env: {
      PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
      PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
      PLUGIN_CATALOG_ALLOW_LOCAL: 'true',
      PLUGIN_OFFICIAL_CATALOG_URL: `http://127.0.0.1:${port}/catalog.json`,
      PLUGIN_OFFICIAL_CATALOG_PUBLIC_KEY: await readFile(
        join(work, 'catalog/publisher.pub.pem'),
        'utf8',
      ),
    },
  });
}, 3 * BUILD_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
  await runner?.stop();
  await catalogServer?.stop();
  await metabase?.close();
  await rm(work, { recursive: true, force: true });
});

describe('official signed catalog → install the CMDB enricher → upload → enrichment tags', () => {
  it('tags the uploaded findings from the CMDB once the installed enricher is configured and enabled', async () => {
    const s = stack as IngestionStack;
    const api = (method: 'get' | 'post' | 'put', path: string) =>
      request(s.t.url)[method](path).set('Authorization', `Bearer ${s.admin.token}`);
    const sources = await api('get', '/api/v1/admin/plugin-marketplaces').expect(200);
    const official = (sources.body as { data: Record<string, unknown>[] }).data.find(
      (x) => x['official'] === true,
    );
    expect(official).toMatchObject({ signed: true });
    await api(
      'get',
      `/api/v1/admin/plugin-marketplaces/${String(official?.['id'])}/catalog`,
    ).expect(200);
    const installed = await api('post', '/api/v1/admin/installed-plugins')
      .send({
        source_type: 'marketplace',
        marketplace_id: official?.['id'],
        catalog_plugin_id: 'cmdb-enricher',
      })
      .expect(201);
    const id = String((installed.body as { data: { id: string } }).data.id);
    const path = `/api/v1/admin/installed-plugins/${id}`;
    // The secret through the ordinary settings is refused; through secret_settings it is kept.
    await api('put', path)
      .send({ settings: { api_token: 'x' } })
      .expect(400);
    await api('put', path)
      .send({
        settings: {
          cmdb_base_url: (metabase as MetabaseStandIn).url,
          database_id: 5,
          servers_table_id: 9,
          column_to_tag_key: { owner: 'owner', criticality: 'criticality' },
        },
        secret_settings: { api_token: 'mb-marketplace-key' },
      })
      .expect(200);

    // Installed but not enabled: an upload gets no tags.
    const product = await freshProduct(s.t, s.admin);
    const ips = ['172.16.1.10', '172.16.1.11'];
    const before = await uploadReport(
      s.t,
      bearer(s.admin),
      product.id,
      networkSarif(2, (i) => ips[i] as string),
    );
    await waitForReport(s.t, bearer(s.admin), before);

    await api('post', `${path}/enable`).expect(200);
    const enrichers = await api('get', '/api/v1/plugins/capabilities/finding-enrichers').expect(
      200,
    );
    expect((enrichers.body as { data: { id: string }[] }).data.map((e) => e.id)).toEqual([id]);

    const fresh = await freshProduct(s.t, s.admin);
    const reportId = await uploadReport(
      s.t,
      bearer(s.admin),
      fresh.id,
      networkSarif(2, (i) => ips[i] as string),
    );
    expect((await waitForReport(s.t, bearer(s.admin), reportId)).status).toBe('completed');
    const tagsOf = (productId: string) =>
      withDb(s.t, async (db) => {
        const res = await db.query<{ ip: string; enrichment_tags: string[] }>(
          `SELECT ip, enrichment_tags FROM findings WHERE product_id = $1 ORDER BY ip`,
          [productId],
        );
        return Object.fromEntries(res.rows.map((r) => [r.ip, r.enrichment_tags]));
      });
    const tags = await waitFor(
      async () => {
        const current = await tagsOf(fresh.id);
        if ((current['172.16.1.11'] ?? []).length === 0) throw new Error(JSON.stringify(current));
        return current;
      },
      { timeoutMs: 60_000, what: 'enrichment tags from the installed enricher' },
    );
    expect(tags).toEqual({
      '172.16.1.10': ['criticality:tier-1', 'owner:payments'],
      '172.16.1.11': ['criticality:tier-3', 'owner:intranet'],
    });
    // The findings of the upload made before enabling stayed without tags.
    expect(await tagsOf(product.id)).toEqual({ '172.16.1.10': [], '172.16.1.11': [] });
    expect((metabase as MetabaseStandIn).headers.at(-1)?.['x-api-key']).toBe('mb-marketplace-key');
  });
});
