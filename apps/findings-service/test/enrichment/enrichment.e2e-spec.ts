import request from 'supertest';
import { publisherKey } from '@platform/plugin-protocol/testing';
import { waitFor, type ServiceProcess } from '@platform/testing';
import {
  BUILD_TIMEOUT_MS,
  RUNNER_TOKEN,
  buildCatalogPlugin,
  startRunnerProcess,
  type SignedCatalogPlugin,
} from '../catalog-plugins/support/catalog-plugin-lab';
import {
  networkSarif,
  seedInstalledPlugin,
  setPluginEnabled,
} from '../catalog-plugins/support/installed-plugin-seed';
import { startMetabaseStandIn, type MetabaseStandIn } from '../catalog-plugins/support/stand-ins';
import { bearer } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { freshMember, freshProduct, type Product } from '../support/findings-seed';
import { startIngestion, type IngestionStack } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';

const publisher = publisherKey();
// Real runner, worker and stand-ins on a shared 2-core machine: calls can queue behind others.
jest.setTimeout(120_000);
const MANUAL_LIMIT = 4;

let runner: ServiceProcess;
let stack: IngestionStack;
let cmdb: SignedCatalogPlugin;
let metabase: MetabaseStandIn;
let pluginId: string;
let product: Product;

const TABLE = {
  databaseId: 3,
  tableId: 17,
  columns: ['ip_address', 'owner', 'env', 'rack'],
  rows: [
    ['10.20.0.1', 'team-web', 'prod', 'r1'],
    ['10.20.0.2', 'team-db', 'staging', 'r2'],
  ] as unknown[][],
};

beforeAll(async () => {
  cmdb = await buildCatalogPlugin('cmdb-enricher', publisher.privateKey);
  const started = await startRunnerProcess();
  runner = started.runner;
  metabase = await startMetabaseStandIn({ ...TABLE, rows: [...TABLE.rows] }, 'mb_secret_key_1');
  stack = await startIngestion({
    worker: true,
    env: {
      PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
      PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
      ENRICH_TAGS_RATE_LIMIT_PER_MINUTE: String(MANUAL_LIMIT),
    },
  });
  pluginId = await seedInstalledPlugin(stack.t, cmdb, {
    publicKeyPem: publisher.publicKeyPem,
    settings: {
      cmdb_base_url: metabase.url,
      database_id: TABLE.databaseId,
      servers_table_id: TABLE.tableId,
      column_to_tag_key: { owner: 'owner', env: 'environment' },
    },
    secrets: { api_token: 'mb_secret_key_1' },
  });
  product = await freshProduct(stack.t, stack.admin);
}, 2 * BUILD_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
  await runner?.stop();
  await metabase?.close();
});

async function enrichmentTags(productId: string): Promise<Record<string, string[]>> {
  return withDb(stack.t, async (db) => {
    const res = await db.query<{ ip: string; enrichment_tags: string[] }>(
      `SELECT ip, enrichment_tags FROM findings WHERE product_id = $1 ORDER BY ip`,
      [productId],
    );
    return Object.fromEntries(res.rows.map((r) => [r.ip, r.enrichment_tags]));
  });
}

async function findingIdByIp(productId: string, ip: string): Promise<string> {
  return withDb(stack.t, async (db) => {
    const res = await db.query<{ id: string }>(
      `SELECT id FROM findings WHERE product_id = $1 AND ip = $2`,
      [productId, ip],
    );
    return res.rows[0]?.id as string;
  });
}

const manual = (auth: { token: string }, findingId: string, plugin = pluginId) =>
  request(stack.t.url)
    .post(`/api/v1/findings/${findingId}/enrich-tags/${plugin}`)
    .set('Authorization', `Bearer ${auth.token}`);

describe('enrichment of findings by an enricher plugin (real runner, CMDB stand-in)', () => {
  it('tags the findings of an uploaded report in the background from the CMDB table', async () => {
    const ips = ['10.20.0.1', '10.20.0.2', '10.99.0.1'];
    const before = metabase.requests.length;
    const reportId = await uploadReport(
      stack.t,
      bearer(stack.admin),
      product.id,
      networkSarif(3, (i) => ips[i] as string),
    );
    expect((await waitForReport(stack.t, bearer(stack.admin), reportId)).status).toBe('completed');
    const tags = await waitFor(
      async () => {
        const current = await enrichmentTags(product.id);
        if ((current['10.20.0.1'] ?? []).length === 0) throw new Error(JSON.stringify(current));
        return current;
      },
      { timeoutMs: 60_000, what: 'enrichment tags written' },
    );
    expect(tags).toEqual({
      '10.20.0.1': ['environment:prod', 'owner:team-web'],
      '10.20.0.2': ['environment:staging', 'owner:team-db'],
      '10.99.0.1': [],
    });
    // One job for the three findings: the table was read once, with the secret key.
    expect(metabase.requests.slice(before)).toEqual(['POST /api/dataset']);
    expect(metabase.headers.at(-1)?.['x-api-key']).toBe('mb_secret_key_1');

    // The finding record shows them.
    const id = await findingIdByIp(product.id, '10.20.0.1');
    const res = await request(stack.t.url)
      .get(`/api/v1/findings/${id}`)
      .set('Authorization', `Bearer ${stack.admin.token}`)
      .expect(200);
    expect(res.body.data.enrichment_tags).toEqual(['environment:prod', 'owner:team-web']);
  }, 90_000);

  it('tags a finding created by hand in the background too', async () => {
    const res = await request(stack.t.url)
      .post(`/api/v1/products/${product.id}/findings`)
      .set('Authorization', `Bearer ${stack.admin.token}`)
      .send({ title: 'Telnet open', severity: 'HIGH', host: '10.20.0.2', port: 23 })
      .expect(201);
    const id = (res.body as { data: { id: string } }).data.id;
    const tags = await waitFor(
      async () => {
        const current = await withDb(stack.t, (db) =>
          db.query<{ enrichment_tags: string[] }>(
            `SELECT enrichment_tags FROM findings WHERE id = $1`,
            [id],
          ),
        );
        const value = current.rows[0]?.enrichment_tags ?? [];
        if (value.length === 0) throw new Error('not enriched yet');
        return value;
      },
      { timeoutMs: 60_000, what: 'the manual finding enriched' },
    );
    expect(tags).toEqual(['environment:staging', 'owner:team-db']);
  });

  it('a manual enrichment overwrites the enricher’s previous tags; the manual tags API cannot remove them', async () => {
    const id = await findingIdByIp(product.id, '10.20.0.1');
    metabase.table = {
      ...TABLE,
      rows: [['10.20.0.1', 'team-platform', null, 'r9']],
    };
    try {
      const res = await manual(stack.admin, id).expect(200);
      expect(res.body.data).toEqual({
        finding_id: id,
        plugin_id: pluginId,
        tags: [{ key: 'owner', value: 'team-platform' }],
        enrichment_tags: ['owner:team-platform'],
      });
      expect((await enrichmentTags(product.id))['10.20.0.1']).toEqual(['owner:team-platform']);

      // Manual tags are another list: removing the text of an enrichment tag changes nothing.
      await request(stack.t.url)
        .delete(`/api/v1/findings/${id}/tags`)
        .set('Authorization', `Bearer ${stack.admin.token}`)
        .send({ tags: ['owner:team-platform'] })
        .expect(200);
      await request(stack.t.url)
        .post(`/api/v1/findings/${id}/tags`)
        .set('Authorization', `Bearer ${stack.admin.token}`)
        .send({ tags: ['mine'] })
        .expect(200);
      const after = await request(stack.t.url)
        .get(`/api/v1/findings/${id}`)
        .set('Authorization', `Bearer ${stack.admin.token}`)
        .expect(200);
      expect(after.body.data.enrichment_tags).toEqual(['owner:team-platform']);
      expect(after.body.data.tags).toEqual(['mine']);
    } finally {
      metabase.table = { ...TABLE, rows: [...TABLE.rows] };
    }
  });

  it('a failing enricher leaves the tags unchanged and says so (422 enrichment_failed)', async () => {
    const id = await findingIdByIp(product.id, '10.20.0.2');
    const before = (await enrichmentTags(product.id))['10.20.0.2'];
    metabase.failWith = 503;
    try {
      const res = await manual(stack.admin, id).expect(422);
      expect(res.body.code).toBe('enrichment_failed');
      // details.reason, as documented: the runner's code of the failure.
      expect(res.body.details).toEqual({ reason: 'plugin_error' });
    } finally {
      metabase.failWith = undefined;
    }
    expect((await enrichmentTags(product.id))['10.20.0.2']).toEqual(before);
  });

  it('refuses an unknown or disabled enricher (404), a finding the caller cannot read (404) or change (403)', async () => {
    const id = await findingIdByIp(product.id, '10.20.0.2');
    const unknown = await manual(stack.admin, id, '00000000-0000-4000-8000-000000000001').expect(
      404,
    );
    expect(unknown.body.code).toBe('enricher_not_found');
    await setPluginEnabled(stack.t, pluginId, false);
    try {
      expect((await manual(stack.admin, id).expect(404)).body.code).toBe('enricher_not_found');
      const list = await request(stack.t.url)
        .get('/api/v1/plugins/capabilities/finding-enrichers')
        .set('Authorization', `Bearer ${stack.admin.token}`)
        .expect(200);
      expect(list.body.data).toEqual([]);
    } finally {
      await setPluginEnabled(stack.t, pluginId, true);
    }
    const viewer = await freshMember(stack.t, stack.admin, product.project_id, 'viewer');
    expect((await manual(viewer, id).expect(403)).body.code).toBe('access_denied');
    const other = await freshMember(
      stack.t,
      stack.admin,
      (await freshProduct(stack.t, stack.admin)).project_id,
      'admin',
    );
    expect((await manual(other, id).expect(404)).body.code).toBe('finding_not_found');
  });

  it('lists the enabled enrichers for the UI', async () => {
    const analyst = await freshMember(stack.t, stack.admin, product.project_id, 'analyst');
    const res = await request(stack.t.url)
      .get('/api/v1/plugins/capabilities/finding-enrichers')
      .set('Authorization', `Bearer ${analyst.token}`)
      .expect(200);
    expect(res.body.data).toEqual([
      {
        id: pluginId,
        catalog_plugin_id: 'cmdb-enricher',
        version: '1.1.0',
        runtime: 'wasm',
        description: cmdb.manifest.description,
      },
    ]);
    const sources = await request(stack.t.url)
      .get('/api/v1/plugins/capabilities/inventory-sources')
      .set('Authorization', `Bearer ${analyst.token}`)
      .expect(200);
    expect(sources.body.data).toEqual([]);
  });

  it(`limits manual enrichment to ENRICH_TAGS_RATE_LIMIT_PER_MINUTE (${MANUAL_LIMIT}) per user`, async () => {
    const analyst = await freshMember(stack.t, stack.admin, product.project_id, 'analyst');
    const id = await findingIdByIp(product.id, '10.20.0.2');
    for (let i = 0; i < MANUAL_LIMIT; i += 1) await manual(analyst, id).expect(200);
    const limited = await manual(analyst, id).expect(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBeDefined();
    // Another user has their own budget.
    const second = await freshMember(stack.t, stack.admin, product.project_id, 'analyst');
    await manual(second, id).expect(200);
  });
});
