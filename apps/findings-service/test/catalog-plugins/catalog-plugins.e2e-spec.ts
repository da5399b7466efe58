import type { INestApplicationContext } from '@nestjs/common';
import { publisherKey } from '@platform/plugin-protocol/testing';
import type { ServiceProcess } from '@platform/testing';
import type {
  PluginInvocation,
  PluginRunnerClient,
} from '../../src/modules/plugin-runner-client/plugin-runner.client';
import {
  BUILD_TIMEOUT_MS,
  buildCatalogPlugin,
  hostOfUrl,
  loadRequestOf,
  runnerClient,
  secretsPort,
  startRunnerProcess,
  type SignedCatalogPlugin,
} from './support/catalog-plugin-lab';
import {
  startFleetStandIn,
  startMetabaseStandIn,
  startNvdKevStandIn,
  type FleetHost,
  type FleetStandIn,
  type MetabaseStandIn,
  type NvdKevStandIn,
} from './support/stand-ins';
import { randomUUID } from 'node:crypto';
import { waitFor } from '@platform/testing';
import {
  NATIVE_NODE_PATH,
  buildChannel,
  nativeLoadRequest,
  runnerHealth,
  type BuiltChannel,
  type ChannelName,
} from './support/channel-lab';
import {
  startMattermostStandIn,
  startMaxStandIn,
  startSlackStandIn,
  startTeamsStandIn,
  startTelegramStandIn,
  type Answer,
  type ChatRequest,
  type ChatStandIn,
} from './support/chat-stand-ins';
import {
  HostCallDenied,
  HostCallNotConfigured,
} from '../../src/modules/plugin-runner-client/host-call-ports';

const PROJECT = '33333333-3333-4333-8333-333333333333';
const publisher = publisherKey();
// Real runner, worker and stand-ins on a shared 2-core machine: calls can queue behind others.
jest.setTimeout(120_000);

let runner: ServiceProcess;
let client: PluginRunnerClient;
let context: INestApplicationContext;
let cmdb: SignedCatalogPlugin;
let cve: SignedCatalogPlugin;
let fleet: SignedCatalogPlugin;
let metabase: MetabaseStandIn;
let nvd: NvdKevStandIn;
let fleetApi: FleetStandIn;

const secrets: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  // Sequential: componentizing is CPU-bound and the machine has two cores.
  cmdb = await buildCatalogPlugin('cmdb-enricher', publisher.privateKey);
  cve = await buildCatalogPlugin('cve-enricher', publisher.privateKey);
  fleet = await buildCatalogPlugin('fleet-source', publisher.privateKey);
  const started = await startRunnerProcess();
  runner = started.runner;
  ({ client, context } = await runnerClient(started.grpcPort, secretsPort(secrets)));
  metabase = await startMetabaseStandIn(
    {
      databaseId: 2,
      tableId: 41,
      columns: ['id', 'hostname', 'IP', 'Owner', 'env', 'location'],
      rows: [
        [1, 'web-01', '10.0.0.5', 'team-web', 'prod', 'dc-1'],
        [2, 'db-01', '10.0.0.9', 'team-db', 'prod', null],
        [3, 'lab-01', '192.168.3.3', 'lab', 'test', 'dc-2'],
      ],
    },
    'mb_key_0123456789',
  );
  nvd = await startNvdKevStandIn({
    cves: [
      {
        id: 'CVE-2024-3094',
        cvss31: {
          baseScore: 10,
          baseSeverity: 'CRITICAL',
          vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H',
        },
        cpes: [
          'cpe:2.3:a:tukaani:xz:5.6.0:*:*:*:*:*:*:*',
          'cpe:2.3:a:tukaani:xz:5.6.1:*:*:*:*:*:*:*',
          'cpe:2.3:o:fedoraproject:fedora:40:*:*:*:*:*:*:*',
        ],
      },
      {
        id: 'CVE-2014-0160',
        cvss2: { baseScore: 5, vectorString: 'AV:N/AC:L/Au:N/C:P/I:N/A:N' },
        cpes: ['cpe:2.3:a:openssl:openssl:1.0.1:*:*:*:*:*:*:*'],
      },
    ],
    kev: [
      { cveID: 'CVE-2024-3094', vendorProject: 'XZ Utils', product: 'XZ', ransomware: 'Unknown' },
      { cveID: 'CVE-2014-0160', vendorProject: 'OpenSSL', product: 'OpenSSL', ransomware: 'Known' },
    ],
    reputation: { '203.0.113.7': 87 },
    apiKey: 'nvd-key-abc',
  });
  fleetApi = await startFleetStandIn({ hosts: [], token: 'fleet-token-xyz' });
}, 3 * BUILD_TIMEOUT_MS);

afterAll(async () => {
  await context?.close();
  await runner?.stop();
  await Promise.all([metabase?.close(), nvd?.close(), fleetApi?.close()]);
});

function finding(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    severity: 'HIGH',
    rule: 'open-port',
    description: 'found',
    scanner: 'nmap',
    status: 'new',
    ...extra,
  };
}

async function load(plugin: SignedCatalogPlugin, pluginId: string, permittedHosts: string[]) {
  await client.load(loadRequestOf(plugin, pluginId, publisher.publicKeyPem, permittedHosts));
}

function call(
  plugin: SignedCatalogPlugin,
  pluginId: string,
  eventId: string,
  operation: 'enrich' | 'poll',
  payload: Record<string, unknown>,
  settings: Record<string, unknown>,
): PluginInvocation {
  return {
    context: { pluginId, versionDigest: plugin.sha256, projectId: PROJECT, eventId },
    capability: operation === 'enrich' ? 'finding_enricher' : 'finding_source',
    operation,
    payload,
    settings,
  };
}

function tagsOf(result: Awaited<ReturnType<PluginRunnerClient['invoke']>>) {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return Object.fromEntries(
    (result.value as { key: string; value: string }[]).map((t) => [t.key, t.value]),
  );
}

describe('catalog plugin cmdb-enricher (Metabase-style table API) in a real runner', () => {
  const settings = () => ({
    cmdb_base_url: metabase.url,
    database_id: 2,
    servers_table_id: 41,
    column_to_tag_key: { hostname: 'cmdb-host', Owner: 'owner', env: 'environment' },
  });

  it('is a signed 1.1.0 enricher that checks its configuration, whose settings are exactly the spec names', () => {
    expect(cmdb.manifest).toMatchObject({
      id: 'cmdb-enricher',
      version: '1.1.0',
      capabilities: ['finding_enricher', 'config_validator'],
      runtime: 'wasm',
    });
    expect(
      cmdb.manifest.settings.map((s) => [s.name, s.required ?? false, s.secret ?? false]),
    ).toEqual([
      ['cmdb_base_url', true, false],
      ['database_id', true, false],
      ['servers_table_id', true, false],
      ['column_to_tag_key', false, false],
      ['api_token', false, true],
    ]);
  });

  it('tags findings by IP from the table row, reading the table once per event, sending the secret key', async () => {
    secrets['cmdb-1'] = { api_token: 'mb_key_0123456789' };
    await load(cmdb, 'cmdb-1', [hostOfUrl(metabase.url)]);
    const before = metabase.requests.length;
    const first = await client.invoke(
      call(
        cmdb,
        'cmdb-1',
        'job-1',
        'enrich',
        { finding: finding('f-1', { ip: '10.0.0.5' }) },
        settings(),
      ),
    );
    expect(tagsOf(first)).toEqual({
      'cmdb-host': 'web-01',
      owner: 'team-web',
      environment: 'prod',
    });
    const second = await client.invoke(
      call(
        cmdb,
        'cmdb-1',
        'job-1',
        'enrich',
        { finding: finding('f-2', { ip: '10.0.0.9' }) },
        settings(),
      ),
    );
    expect(tagsOf(second)).toEqual({ 'cmdb-host': 'db-01', owner: 'team-db', environment: 'prod' });
    const unknown = await client.invoke(
      call(
        cmdb,
        'cmdb-1',
        'job-1',
        'enrich',
        { finding: finding('f-3', { ip: '10.9.9.9' }) },
        settings(),
      ),
    );
    expect(tagsOf(unknown)).toEqual({});
    // One event: the instance (and its table) served all three findings.
    expect(metabase.requests.slice(before)).toEqual(['POST /api/dataset']);
    expect(metabase.headers.at(-1)?.['x-api-key']).toBe('mb_key_0123456789');

    const noMapping = { ...settings(), column_to_tag_key: undefined };
    const all = await client.invoke(
      call(
        cmdb,
        'cmdb-1',
        'job-2',
        'enrich',
        { finding: finding('f-4', { ip: '192.168.3.3' }) },
        noMapping,
      ),
    );
    expect(tagsOf(all)).toEqual({
      id: '3',
      hostname: 'lab-01',
      owner: 'lab',
      env: 'test',
      location: 'dc-2',
    });
    expect(metabase.requests.length - before).toBe(2);
  });

  it('fails the call (tags unchanged) when the CMDB refuses the key, answers an error, or is not a permitted host', async () => {
    secrets['cmdb-2'] = { api_token: 'wrong-key' };
    await load(cmdb, 'cmdb-2', [hostOfUrl(metabase.url)]);
    const refused = await client.invoke(
      call(
        cmdb,
        'cmdb-2',
        'job-3',
        'enrich',
        { finding: finding('f-1', { ip: '10.0.0.5' }) },
        settings(),
      ),
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'plugin_error' } });
    expect(!refused.ok && refused.error.message).toContain('HTTP 401');
    // The secret never appears in what comes back.
    expect(JSON.stringify(refused)).not.toContain('wrong-key');

    secrets['cmdb-2'] = { api_token: 'mb_key_0123456789' };
    metabase.failWith = 503;
    try {
      const down = await client.invoke(
        call(
          cmdb,
          'cmdb-2',
          'job-4',
          'enrich',
          { finding: finding('f-1', { ip: '10.0.0.5' }) },
          settings(),
        ),
      );
      expect(down).toMatchObject({ ok: false, error: { code: 'plugin_error' } });
      expect(!down.ok && down.error.message).toContain('HTTP 503');
    } finally {
      metabase.failWith = undefined;
    }

    await load(cmdb, 'cmdb-3', []);
    const notPermitted = await client.invoke(
      call(
        cmdb,
        'cmdb-3',
        'job-5',
        'enrich',
        { finding: finding('f-1', { ip: '10.0.0.5' }) },
        settings(),
      ),
    );
    expect(notPermitted).toMatchObject({ ok: false, error: { code: 'plugin_error' } });
    expect(!notPermitted.ok && notPermitted.error.message).toContain('denied');
  });
});

describe('catalog plugin cve-enricher (NVD 2.0 + KEV feed) in a real runner', () => {
  const settings = (extra: Record<string, unknown> = {}) => ({
    nvd_base_url: nvd.url,
    kev_feed_url: `${nvd.url}${nvd.kevPath}`,
    reputation_base_url: nvd.url,
    ...extra,
  });

  it('tags CVSS, affected products and the known-exploited flag; reputation lookups are off by default', async () => {
    secrets['cve-1'] = { nvd_api_key: 'nvd-key-abc' };
    await load(cve, 'cve-1', [hostOfUrl(nvd.url)]);
    const before = nvd.requests.length;
    const xz = await client.invoke(
      call(
        cve,
        'cve-1',
        'job-1',
        'enrich',
        { finding: finding('f-1', { cve: 'CVE-2024-3094', ip: '203.0.113.7' }) },
        settings(),
      ),
    );
    expect(tagsOf(xz)).toEqual({
      'cvss-score': '10.0',
      'cvss-severity': 'CRITICAL',
      'cvss-vector': 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H',
      'cvss-version': '3.1',
      'affected-products': 'tukaani:xz,fedoraproject:fedora',
      'known-exploited': 'yes',
      'kev-ransomware': 'unknown',
    });
    const heartbleed = await client.invoke(
      call(
        cve,
        'cve-1',
        'job-1',
        'enrich',
        { finding: finding('f-2', { cve: 'cve-2014-0160' }) },
        settings(),
      ),
    );
    expect(tagsOf(heartbleed)).toMatchObject({
      'cvss-score': '5.0',
      'cvss-version': '2.0',
      'affected-products': 'openssl:openssl',
      'known-exploited': 'yes',
      'kev-ransomware': 'known',
    });
    const unknown = await client.invoke(
      call(
        cve,
        'cve-1',
        'job-1',
        'enrich',
        { finding: finding('f-3', { cve: 'CVE-2020-0001' }) },
        settings(),
      ),
    );
    expect(tagsOf(unknown)).toEqual({ 'known-exploited': 'no' });
    const requests = nvd.requests.slice(before);
    // The KEV feed once for the event, each CVE once, no reputation lookup.
    expect(requests.filter((r) => r.includes('known_exploited'))).toHaveLength(1);
    expect(requests.filter((r) => r.startsWith('GET /rest/json/cves/2.0'))).toHaveLength(3);
    expect(requests.some((r) => r.startsWith('GET /api/v2/check'))).toBe(false);
    expect(nvd.headers.slice(before).find((h) => h['apikey'])?.['apikey']).toBe('nvd-key-abc');
  });

  it('looks the address up when reputation_lookups is on', async () => {
    secrets['cve-2'] = { nvd_api_key: 'nvd-key-abc', reputation_api_key: 'rep-key' };
    await load(cve, 'cve-2', [hostOfUrl(nvd.url)]);
    const result = await client.invoke(
      call(
        cve,
        'cve-2',
        'job-2',
        'enrich',
        { finding: finding('f-1', { ip: '203.0.113.7' }) },
        settings({ reputation_lookups: true }),
      ),
    );
    expect(tagsOf(result)).toEqual({ 'ip-reputation': '87' });
    expect(nvd.headers.at(-1)?.['key']).toBe('rep-key');
  });
});

describe('catalog plugin fleet-source 1.0.8 (FleetDM-style hosts/software API) in a real runner', () => {
  const host = (id: number, extra: Partial<FleetHost> = {}): FleetHost => ({
    id,
    hostname: `host-${id}`,
    primary_ip: `10.1.0.${id}`,
    software: [],
    ...extra,
  });
  const settings = (extra: Record<string, unknown> = {}) => ({
    fleet_base_url: fleetApi.url,
    target_project_id: PROJECT,
    default_product_name: 'Endpoints',
    ...extra,
  });
  type Batch = {
    nodes: { key: string; hostname: string; ip: string; product: string | null }[];
    findings: {
      nodeKey: string;
      rule: string;
      severity: string;
      cve: string;
      component: string;
      componentVersion: string;
    }[];
  };
  const poll = async (pluginId: string, eventId: string, extra: Record<string, unknown> = {}) =>
    client.invoke(call(fleet, pluginId, eventId, 'poll', {}, settings(extra)));
  const batchOf = (result: Awaited<ReturnType<PluginRunnerClient['invoke']>>): Batch => {
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    return result.value as Batch;
  };

  beforeAll(async () => {
    secrets['fleet-1'] = { api_token: 'fleet-token-xyz' };
    await load(fleet, 'fleet-1', [hostOfUrl(fleetApi.url)]);
  });

  it('declares version 1.0.8, minimum service version >=0.33 and the spec settings', () => {
    expect(fleet.manifest).toMatchObject({
      id: 'fleet-source',
      version: '1.0.8',
      min_service_version: '>=0.33',
      capabilities: ['finding_source'],
    });
    expect(fleet.manifest.settings.map((s) => s.name)).toEqual([
      'fleet_base_url',
      'target_project_id',
      'fleet_edition',
      'default_product_name',
      'stale_host_ignore',
      'cve_severity_max_lookups',
      'cve_severity_budget_seconds',
      'api_token',
    ]);
    expect(fleet.manifest.settings.filter((s) => s.secret).map((s) => s.name)).toEqual([
      'api_token',
    ]);
  });

  it('answers every host as a node and every vulnerable software as a finding (free edition: severities looked up within the ceiling)', async () => {
    fleetApi.hosts = [
      host(1, {
        software: [
          {
            name: 'openssl',
            version: '3.0.2',
            vulnerabilities: [{ cve: 'CVE-2022-3602' }, { cve: 'CVE-2023-0286' }],
          },
          { name: 'bash', version: '5.1', vulnerabilities: null },
        ],
      }),
      host(2, {
        team_name: 'Finance',
        software: [{ name: 'xz', version: '5.6.0', vulnerabilities: [{ cve: 'CVE-2024-3094' }] }],
      }),
    ];
    const batch = batchOf(await poll('fleet-1', 'poll-1', { cve_severity_max_lookups: 2 }));
    expect(batch.nodes.map((n) => [n.key, n.hostname, n.ip, n.product])).toEqual([
      ['fleet-host-1', 'host-1', '10.1.0.1', 'Endpoints'],
      ['fleet-host-2', 'host-2', '10.1.0.2', 'Endpoints'],
    ]);
    expect(
      batch.findings.map((f) => [f.nodeKey, f.rule, f.cve, f.component, f.componentVersion]),
    ).toEqual([
      ['fleet-host-1', 'CVE-2022-3602', 'CVE-2022-3602', 'openssl', '3.0.2'],
      ['fleet-host-1', 'CVE-2023-0286', 'CVE-2023-0286', 'openssl', '3.0.2'],
      ['fleet-host-2', 'CVE-2024-3094', 'CVE-2024-3094', 'xz', '5.6.0'],
    ]);
    // The stand-in knows no scores: two lookups (the ceiling), then none; all MEDIUM.
    const vulnerabilityLookups = fleetApi.requests.filter((r) =>
      r.startsWith('GET /api/v1/fleet/vulnerabilities/'),
    );
    expect(vulnerabilityLookups).toHaveLength(2);
    expect(batch.findings.every((f) => f.severity === 'MEDIUM')).toBe(true);
    expect(fleetApi.headers.at(-1)?.['authorization']).toBe('Bearer fleet-token-xyz');
  });

  it('maps teams to products and takes cvss_score in the premium edition; skips missing hosts with stale_host_ignore', async () => {
    fleetApi.hosts = [
      host(1, {
        team_name: 'Finance',
        software: [
          {
            name: 'xz',
            version: '5.6.0',
            vulnerabilities: [{ cve: 'CVE-2024-3094', cvss_score: 10 }],
          },
        ],
      }),
      host(2, { status: 'missing', software: [] }),
      host(3, {
        software: [
          {
            name: 'curl',
            version: '7.81',
            vulnerabilities: [{ cve: 'CVE-2023-38545', cvss_score: 7.5 }],
          },
        ],
      }),
    ];
    const batch = batchOf(
      await poll('fleet-1', 'poll-2', { fleet_edition: 'premium', stale_host_ignore: true }),
    );
    expect(batch.nodes.map((n) => [n.key, n.product])).toEqual([
      ['fleet-host-1', 'Finance'],
      ['fleet-host-3', 'Endpoints'],
    ]);
    expect(batch.findings.map((f) => [f.nodeKey, f.severity])).toEqual([
      ['fleet-host-1', 'CRITICAL'],
      ['fleet-host-3', 'HIGH'],
    ]);
    const free = batchOf(await poll('fleet-1', 'poll-3'));
    expect(free.nodes.map((n) => [n.key, n.product])).toEqual([
      ['fleet-host-1', 'Endpoints'],
      ['fleet-host-2', 'Endpoints'],
      ['fleet-host-3', 'Endpoints'],
    ]);
  });

  it('pages through the hosts until a short page', async () => {
    fleetApi.hosts = Array.from({ length: 501 }, (_, i) => host(i + 1));
    const before = fleetApi.requests.length;
    const batch = batchOf(await poll('fleet-1', 'poll-4'));
    expect(batch.nodes).toHaveLength(501);
    expect(
      fleetApi.requests.slice(before).filter((r) => r.startsWith('GET /api/v1/fleet/hosts')),
    ).toHaveLength(2);
  });

  it('answers an empty fleet as zero nodes, and a system it cannot poll as a poll error, never an empty batch', async () => {
    fleetApi.hosts = [];
    expect(batchOf(await poll('fleet-1', 'poll-5'))).toEqual({ nodes: [], findings: [] });

    fleetApi.failWith = 503;
    try {
      const failed = await poll('fleet-1', 'poll-6');
      expect(failed).toMatchObject({
        ok: false,
        error: {
          code: 'plugin_error',
          detail: { tag: 'failed', val: expect.stringContaining('HTTP 503') },
        },
      });
    } finally {
      fleetApi.failWith = undefined;
    }

    secrets['fleet-2'] = { api_token: 'not-the-token' };
    await load(fleet, 'fleet-2', [hostOfUrl(fleetApi.url)]);
    const unauthorized = await poll('fleet-2', 'poll-7');
    expect(unauthorized).toMatchObject({
      ok: false,
      error: {
        code: 'plugin_error',
        detail: { tag: 'unauthorized', val: expect.stringContaining('HTTP 401') },
      },
    });

    const closed = await startFleetStandIn({ hosts: [] });
    const url = closed.url;
    await closed.close();
    await load(fleet, 'fleet-3', [hostOfUrl(url)]);
    const unreachable = await client.invoke(
      call(fleet, 'fleet-3', 'poll-8', 'poll', {}, settings({ fleet_base_url: url })),
    );
    expect(unreachable).toMatchObject({
      ok: false,
      error: { code: 'plugin_error', detail: { tag: 'unreachable' } },
    });
  });

  it('stops severity lookups when the fleet manager clock says the budget is spent', async () => {
    const slow = await startFleetStandIn({
      hosts: [
        host(1, {
          software: [
            {
              name: 'pkg',
              version: '1',
              vulnerabilities: [
                { cve: 'CVE-2020-0001' },
                { cve: 'CVE-2020-0002' },
                { cve: 'CVE-2020-0003' },
                { cve: 'CVE-2020-0004' },
              ],
            },
          ],
        }),
      ],
      scores: {
        'CVE-2020-0001': 9.8,
        'CVE-2020-0002': 3.1,
        'CVE-2020-0003': 9.8,
        'CVE-2020-0004': 9.8,
      },
      secondsPerRequest: 10,
    });
    try {
      await load(fleet, 'fleet-4', [hostOfUrl(slow.url)]);
      const batch = batchOf(
        await client.invoke(
          call(
            fleet,
            'fleet-4',
            'poll-9',
            'poll',
            {},
            settings({ fleet_base_url: slow.url, cve_severity_budget_seconds: 15 }),
          ),
        ),
      );
      // hosts page at t=0, lookup 1 at t=10 s, lookup 2 at t=20 s spends the 15 s budget.
      expect(batch.findings.map((f) => f.severity)).toEqual([
        'CRITICAL',
        'LOW',
        'MEDIUM',
        'MEDIUM',
      ]);
      expect(slow.requests.filter((r) => r.includes('/vulnerabilities/'))).toHaveLength(2);
    } finally {
      await slow.close();
    }
  });
});

// ---- notification channels (native, tier 2): tools/catalog/plugins/*-channel ----------------

const channelKey = publisherKey();
const CHANNEL_SECRETS = {
  telegram: '123456789:AAHsecretTelegramToken_abcdefghijk',
  slack: '/services/T0SECRET/B0SECRET/slackSecretPath0123456789',
  teams: '/webhookb2/teamsSecretPath-0123456789abcdef',
  mattermost: 'mmsecrethookid0123456789ab',
  max: 'max-secret-access-token-0123456789',
};

interface ChannelCase {
  name: ChannelName;
  pluginId: string;
  start(): Promise<ChatStandIn>;
  settings(standIn: ChatStandIn): Record<string, unknown>;
  secrets(standIn: ChatStandIn): Record<string, string>;
  /** The request the API expects, checked on a delivered message. */
  checkSent(request: ChatRequest): void;
  /** Permanent refusals in the API's own shape (400/401/404/410). */
  refusals: Answer[];
}

const channelCases: ChannelCase[] = [
  {
    name: 'telegram-channel',
    pluginId: 'chan-telegram',
    start: () => startTelegramStandIn(CHANNEL_SECRETS.telegram, '-100777'),
    settings: (s) => ({ chat_id: '-100777', api_base_url: s.url }),
    secrets: () => ({ bot_token: CHANNEL_SECRETS.telegram }),
    checkSent: (request) => {
      expect(request.path).toBe(`/bot${CHANNEL_SECRETS.telegram}/sendMessage`);
      const body = JSON.parse(request.body);
      expect(body).toMatchObject({
        chat_id: '-100777',
        parse_mode: 'HTML',
        disable_web_page_preview: true,
      });
      expect(body.text).toContain('<b>New findings in Payments: 3 findings</b>');
      expect(body.text).toContain('SQL injection &lt;script&gt;');
    },
    refusals: [
      {
        status: 400,
        body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
      },
      { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } },
      { status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } },
      { status: 410, body: { ok: false, error_code: 410, description: 'Gone' } },
    ],
  },
  {
    name: 'slack-channel',
    pluginId: 'chan-slack',
    start: () => startSlackStandIn(CHANNEL_SECRETS.slack),
    settings: () => ({}),
    secrets: (s) => ({ webhook_url: `${s.url}${CHANNEL_SECRETS.slack}` }),
    checkSent: (request) => {
      expect(request.path).toBe(CHANNEL_SECRETS.slack);
      const body = JSON.parse(request.body);
      expect(body.text).toContain('*New findings in Payments: 3 findings*');
      expect(body.blocks).toEqual([{ type: 'section', text: { type: 'mrkdwn', text: body.text } }]);
    },
    refusals: [
      { status: 400, body: 'invalid_payload' },
      { status: 403, body: 'invalid_token' },
      { status: 404, body: 'no_service' },
      { status: 410, body: 'channel_is_archived' },
    ],
  },
  {
    name: 'teams-channel',
    pluginId: 'chan-teams',
    start: () => startTeamsStandIn(CHANNEL_SECRETS.teams),
    settings: () => ({}),
    secrets: (s) => ({ webhook_url: `${s.url}${CHANNEL_SECRETS.teams}` }),
    checkSent: (request) => {
      expect(request.path).toBe(CHANNEL_SECRETS.teams);
      const body = JSON.parse(request.body);
      expect(body.type).toBe('message');
      expect(body.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
      const card = body.attachments[0].content;
      expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
      expect(card.body[0]).toMatchObject({
        type: 'TextBlock',
        text: 'New findings in Payments: 3 findings',
      });
      expect(card.actions[0]).toMatchObject({ type: 'Action.OpenUrl', url: LIST_URL });
    },
    refusals: [
      { status: 400, body: { error: { code: 'BadRequest', message: 'Bad payload' } } },
      { status: 401, body: { error: { code: 'Unauthorized', message: 'Unauthorized' } } },
      { status: 404, body: { error: { code: 'NotFound', message: 'Webhook not found' } } },
      { status: 410, body: 'Gone' },
    ],
  },
  {
    name: 'mattermost-channel',
    pluginId: 'chan-mattermost',
    start: () => startMattermostStandIn(CHANNEL_SECRETS.mattermost),
    settings: (s) => ({ chatserver_base_url: s.url, channel: 'security' }),
    secrets: (s) => ({ webhook_url: `${s.url}/hooks/${CHANNEL_SECRETS.mattermost}` }),
    checkSent: (request) => {
      expect(request.path).toBe(`/hooks/${CHANNEL_SECRETS.mattermost}`);
      const body = JSON.parse(request.body);
      expect(body.channel).toBe('security');
      expect(body.text).toContain('**New findings in Payments: 3 findings**');
    },
    refusals: [400, 401, 404, 410].map((status) => ({
      status,
      body: { id: 'api.error', message: `refused ${status}`, status_code: status },
    })),
  },
  {
    name: 'maxru-channel',
    pluginId: 'chan-max',
    start: () => startMaxStandIn(CHANNEL_SECRETS.max, '4242'),
    settings: (s) => ({ chat_id: '4242', base_url: s.url }),
    secrets: () => ({ access_token: CHANNEL_SECRETS.max }),
    checkSent: (request) => {
      expect(request.path).toBe('/messages?chat_id=4242');
      expect(request.headers['authorization']).toBe(CHANNEL_SECRETS.max);
      const body = JSON.parse(request.body);
      expect(body.format).toBe('markdown');
      expect(body.text).toContain('**New findings in Payments: 3 findings**');
    },
    refusals: [400, 401, 404, 410].map((status) => ({
      status,
      body: { code: 'refused', message: `refused ${status}` },
    })),
  },
];

const LIST_URL = 'https://findings.example/findings?q=project%3APayments';

function notificationEvent(): Record<string, unknown> {
  const item = (n: number, severity: string, title: string) => ({
    id: `0000000${n}-0000-4000-8000-000000000000`,
    title,
    severity,
    status: 'new',
    product: 'api',
    location: `src/db.ts:${n}`,
    url: `https://findings.example/findings/0000000${n}`,
    due_at: null,
  });
  return {
    schema: 'findsvc.notification/1',
    kind: 'new_findings',
    notification_id: randomUUID(),
    project: { id: PROJECT, name: 'Payments', url: `https://findings.example/projects/${PROJECT}` },
    created_at: '2026-11-29T01:00:00.000Z',
    threshold: 'HIGH',
    total: 3,
    counts: { CRITICAL: 1, HIGH: 2 },
    digest: false,
    items: [
      item(1, 'CRITICAL', 'SQL injection <script>'),
      item(2, 'HIGH', 'Open redirect'),
      item(3, 'HIGH', 'Weak TLS'),
    ],
    more: 0,
    list_url: LIST_URL,
  };
}

describe('catalog notification channels (native) in a real runner against loopback chat APIs', () => {
  let channelRunner: ServiceProcess;
  let channelPort: number;
  let channelClient: PluginRunnerClient;
  let channelContext: INestApplicationContext;
  const built = new Map<string, BuiltChannel>();
  const standIns = new Map<string, ChatStandIn>();
  const projectSecrets: Record<string, Record<string, string>> = {};
  const errorTexts: string[] = [];
  /** What the findings service's mail port was asked (the e-mail channel's SendEmail). */
  const mails: Array<{ pluginId: string; projectId: string; subject: string; body: string }> = [];
  let mailAnswer: 'sent' | 'not_configured' | 'denied' | 'broken' = 'sent';

  beforeAll(async () => {
    for (const c of channelCases) built.set(c.name, buildChannel(c.name, channelKey));
    const started = await startRunnerProcess({
      PLUGIN_NATIVE_NODE_PATH: NATIVE_NODE_PATH,
      PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE: '6000',
    });
    channelRunner = started.runner;
    channelPort = started.grpcPort;
    ({ client: channelClient, context: channelContext } = await runnerClient(channelPort, {
      secrets: {
        getSecret: async () => undefined,
        getProjectSecret: async (ctx, name) => projectSecrets[ctx.pluginId]?.[name],
      },
      mail: {
        send: async (ctx, message) => {
          mails.push({ pluginId: ctx.pluginId, projectId: ctx.projectId, ...message });
          if (mailAnswer === 'not_configured') throw new HostCallNotConfigured('project mail');
          if (mailAnswer === 'denied') throw new HostCallDenied('the project mail server');
          if (mailAnswer === 'broken') throw new Error('smtp connection reset');
          return { messageId: `<m${mails.length}@findings.example>` };
        },
      },
    }));
    built.set('email-channel', buildChannel('email-channel', channelKey));
    await channelClient.load(
      nativeLoadRequest(
        built.get('email-channel') as BuiltChannel,
        'chan-email',
        channelKey.publicKeyPem,
      ),
    );
    for (const c of channelCases) {
      const standIn = await c.start();
      standIns.set(c.name, standIn);
      projectSecrets[c.pluginId] = c.secrets(standIn);
      await channelClient.load(
        nativeLoadRequest(built.get(c.name) as BuiltChannel, c.pluginId, channelKey.publicKeyPem),
      );
    }
  }, 240_000);

  afterAll(async () => {
    await channelContext?.close();
    await channelRunner?.stop();
    await Promise.all([...standIns.values()].map((s) => s.close()));
  });

  async function deliver(
    c: ChannelCase,
    options: { key?: string; settings?: Record<string, unknown>; deadlineMs?: number } = {},
  ) {
    const standIn = standIns.get(c.name) as ChatStandIn;
    const result = await channelClient.invoke({
      context: {
        pluginId: c.pluginId,
        versionDigest: (built.get(c.name) as BuiltChannel).sha256,
        projectId: PROJECT,
        eventId: randomUUID(),
      },
      capability: 'notification_channel',
      operation: 'deliver',
      payload: { event: notificationEvent() },
      settings: options.settings ?? c.settings(standIn),
      idempotencyKey: options.key ?? `ntf:${randomUUID()}:${c.pluginId}`,
      ...(options.deadlineMs ? { deadlineMs: options.deadlineMs } : {}),
    });
    if (!result.ok) errorTexts.push(JSON.stringify(result.error));
    return result;
  }

  const rejected = {
    ok: false,
    error: { code: 'plugin_error', detail: { outcome: 'rejected', retryable: false } },
  };
  const failedRetryable = {
    ok: false,
    error: { code: 'plugin_error', detail: { outcome: 'failed', retryable: true } },
  };

  it('builds signed native 1.0.x manifests for the notification channel capability only', () => {
    for (const c of channelCases) {
      const b = built.get(c.name) as BuiltChannel;
      expect(b.manifest).toMatchObject({
        id: c.name,
        runtime: 'native',
        capabilities: ['notification_channel'],
        artifact_sha256: b.sha256,
      });
      expect(b.artifact.subarray(0, 20).toString()).toBe('#!/usr/bin/env node\n');
      // Deterministic: a second build gives the same bytes.
      expect(buildChannel(c.name, channelKey).sha256).toBe(b.sha256);
    }
    expect(built.get('mattermost-channel')?.manifest.version).toBe('1.0.1');
  });

  describe.each(channelCases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const standIn = () => standIns.get(c.name) as ChatStandIn;
    afterEach(() => standIn().set({ kind: 'normal' }));

    it('delivers once in the API shape, sends the Idempotency-Key, and answers a repeat from memory', async () => {
      const key = `ntf:${randomUUID()}:${c.pluginId}`;
      const before = standIn().requests.length;
      const first = await deliver(c, { key });
      expect(first).toMatchObject({ ok: true, value: { delivered: true, duplicate: false } });
      const sent = standIn().requests.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.method).toBe('POST');
      expect(sent[0]?.idempotencyKey).toBe(key);
      c.checkSent(sent[0] as ChatRequest);
      const again = await deliver(c, { key });
      expect(again).toMatchObject({ ok: true, value: { delivered: true, duplicate: true } });
      expect(standIn().requests.length).toBe(before + 1);
    });

    it('is FAILED (retryable) on a 429, carrying the wait the API asked for', async () => {
      standIn().set({ kind: 'rateLimit', retryAfterSeconds: 7 });
      const answer = await deliver(c);
      expect(answer).toMatchObject(failedRetryable);
      expect(!answer.ok && answer.error.message).toMatch(/HTTP 429.*retry after 7 s/);
    });

    it('is FAILED (retryable) on a 5xx', async () => {
      standIn().set({ kind: 'status', answer: { status: 503, body: 'upstream down' } });
      expect(await deliver(c)).toMatchObject(failedRetryable);
    });

    it('is REJECTED on 400/401/403/404/410 in the API shape', async () => {
      for (const answer of c.refusals) {
        standIn().set({ kind: 'status', answer });
        const result = await deliver(c);
        expect(result).toMatchObject(rejected);
        expect(!result.ok && result.error.message).toContain(`HTTP ${answer.status}`);
      }
    });

    it('is FAILED "unexpected answer" on HTML instead of the API answer, echoing none of it', async () => {
      standIn().set({ kind: 'garbage' });
      const answer = await deliver(c);
      expect(answer).toMatchObject(failedRetryable);
      expect(!answer.ok && answer.error.message).toMatch(/unexpected answer/);
      expect(JSON.stringify(answer)).not.toContain('Sign in');
    });

    it('cuts a 10 MB answer at 64 KiB and drops the connection (never buffered)', async () => {
      standIn().set({ kind: 'huge' });
      const before = standIn().hugeAnswers.length;
      const answer = await deliver(c);
      expect(answer).toMatchObject(failedRetryable);
      expect(!answer.ok && answer.error.message).toMatch(/64 KiB/);
      await waitFor(
        () => {
          const record = standIn().hugeAnswers[before];
          if (!record || record.finished || record.written >= 10 * 1024 * 1024) {
            throw new Error(`the stand-in sent it all: ${JSON.stringify(record)}`);
          }
          return record;
        },
        { timeoutMs: 5_000, what: 'the huge answer to be cut' },
      );
    });

    it('does not follow a redirect to the metadata address', async () => {
      standIn().set({ kind: 'redirect', to: 'http://169.254.169.254/latest/meta-data/' });
      const before = standIn().requests.length;
      const started = Date.now();
      const answer = await deliver(c);
      expect(answer).toMatchObject(failedRetryable);
      expect(!answer.ok && answer.error.message).toMatch(
        /redirect \(HTTP 302\), which is not followed/,
      );
      expect(standIn().requests.length).toBe(before + 1);
      // A dial of 169.254.169.254 would hang until the deadline on this host.
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it('gives up a slow answer before the call deadline (FAILED or deadline_exceeded, both retried)', async () => {
      standIn().set({ kind: 'slow', ms: 6_000 });
      const started = Date.now();
      const answer = await deliver(c, { deadlineMs: 2_000 });
      expect(answer.ok).toBe(false);
      if (!answer.ok && answer.error.code !== 'deadline_exceeded') {
        expect(answer).toMatchObject(failedRetryable);
        expect(answer.error.message).toMatch(/did not answer within the deadline/);
      }
      expect(Date.now() - started).toBeLessThan(4_000);
    });

    it('REJECTS missing addressing settings without calling the API', async () => {
      const before = standIn().requests.length;
      const saved = projectSecrets[c.pluginId];
      projectSecrets[c.pluginId] = {};
      try {
        const answer = await deliver(c);
        expect(answer).toMatchObject(rejected);
        expect(!answer.ok && answer.error.message).toMatch(/is not set/);
      } finally {
        projectSecrets[c.pluginId] = saved as Record<string, string>;
      }
      expect(standIn().requests.length).toBe(before);
    });
  });

  it('mattermost: without chatserver_base_url, or with a webhook off that server, REJECTED and nothing sent', async () => {
    const c = channelCases.find((x) => x.name === 'mattermost-channel') as ChannelCase;
    const standIn = standIns.get(c.name) as ChatStandIn;
    const before = standIn.requests.length;
    const unset = await deliver(c, { settings: { channel: 'security' } });
    expect(unset).toMatchObject(rejected);
    expect(!unset.ok && unset.error.message).toBe('chat server address is not set');
    const other = await deliver(c, {
      settings: { chatserver_base_url: 'https://chat.example.com', channel: 'security' },
    });
    expect(other).toMatchObject(rejected);
    expect(!other.ok && other.error.message).toMatch(
      /not an address on the configured chat server/,
    );
    expect(standIn.requests.length).toBe(before);
  });

  describe('email-channel', () => {
    afterEach(() => (mailAnswer = 'sent'));
    const deliverMail = () =>
      channelClient.invoke({
        context: {
          pluginId: 'chan-email',
          versionDigest: (built.get('email-channel') as BuiltChannel).sha256,
          projectId: PROJECT,
          eventId: randomUUID(),
        },
        capability: 'notification_channel',
        operation: 'deliver',
        payload: { event: notificationEvent() },
        settings: { recipients: 'sec@payments.example', subject_prefix: '[Payments]' },
        idempotencyKey: `ntf:${randomUUID()}:chan-email`,
      });

    it('renders subject and body and hands them to the service through SendEmail, once', async () => {
      const before = mails.length;
      const answer = await deliverMail();
      expect(answer).toMatchObject({
        ok: true,
        value: { delivered: true, result: { message_id: `<m${before + 1}@findings.example>` } },
      });
      expect(mails.slice(before)).toHaveLength(1);
      const mail = mails[before];
      expect(mail).toMatchObject({
        pluginId: 'chan-email',
        projectId: PROJECT,
        subject: 'New findings in Payments: 3 findings',
      });
      expect(mail?.body.split('\n')).toEqual([
        'New findings in Payments: 3 findings',
        'CRITICAL 1 · HIGH 2',
        '[CRITICAL] SQL injection <script> <https://findings.example/findings/00000001> — api src/db.ts:1',
        '[HIGH] Open redirect <https://findings.example/findings/00000002> — api src/db.ts:2',
        '[HIGH] Weak TLS <https://findings.example/findings/00000003> — api src/db.ts:3',
        `Open in the findings service <${LIST_URL}>`,
        '',
      ]);
    });

    it('is REJECTED when the service has no mail configured or denies it, FAILED when sending broke', async () => {
      mailAnswer = 'not_configured';
      const unconfigured = await deliverMail();
      expect(unconfigured).toMatchObject(rejected);
      expect(!unconfigured.ok && unconfigured.error.message).toMatch(/not_configured/);
      mailAnswer = 'denied';
      expect(await deliverMail()).toMatchObject(rejected);
      mailAnswer = 'broken';
      const broken = await deliverMail();
      expect(broken).toMatchObject(failedRetryable);
      expect(!broken.ok && broken.error.message).toMatch(/unavailable/);
    });
  });

  it('after all of it the runner and every channel are SERVING, and no secret reached a log or an answer', async () => {
    expect(await channelClient.checkHealth()).toBe('SERVING');
    for (const c of channelCases) {
      expect(await runnerHealth(channelPort, `native:${c.pluginId}`)).toBe('SERVING');
    }
    expect(await runnerHealth(channelPort, 'native:chan-email')).toBe('SERVING');
    const logs = channelRunner.output();
    expect(logs).toContain('native plugin loaded');
    for (const secret of Object.values(CHANNEL_SECRETS)) {
      expect(logs).not.toContain(secret);
      expect(errorTexts.join('\n')).not.toContain(secret);
    }
  });
});
