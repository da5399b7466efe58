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
import {
  METADATA_URL,
  startBoardStandIn,
  startJiraStandIn,
  startRepoStandIn,
  type BoardStandIn,
  type Hostile,
  type HttpStandIn,
  type JiraStandIn,
  type RepoStandIn,
} from '@platform/testing/trackers';
import { startBduMirrorStandIn, type BduMirrorStandIn } from './support/bdu-mirror-stand-in';

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

// ---- ticketing providers and the national threat-database enricher (wasm): ---------------
// ---- tools/catalog/plugins/{jira,github,trello}-provider, bdu-enricher ---------------------

const WP5_SECRETS = {
  jiraToken: 'jira-api-token-SECRET-0a1b2c3d',
  jiraClientSecret: 'jira-client-secret-SECRET-4e5f6a7b',
  githubToken: 'ghp_SECRETgithubToken0123456789abcdef',
  giteaToken: 'gitea-SECRET-token-abcdef0123456789',
  trelloKey: 'trellokeySECRET0123456789abcdef',
  trelloToken: 'trellotokenSECRET0123456789abcdefabcdef0123',
  bduToken: 'bdu-mirror-SECRET-token-77aa88bb',
};

type ProviderOperation =
  | 'create-task'
  | 'create-group-task'
  | 'add-comment'
  | 'transition'
  | 'read-status'
  | 'build-link'
  | 'parse-webhook'
  | 'find-task-by-label'
  | 'list-targets';

let wp5Events = 0;
/** A fresh event id: a new event gets a fresh plugin instance (nothing kept from the last). */
function nextWp5Event(): string {
  wp5Events += 1;
  return `wp5-event-${wp5Events}`;
}

/** Polls `probe` until it answers (the runner's output reaches the test through a pipe). */
async function eventually<T>(
  probe: () => T | undefined,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type InvokeResult = Awaited<ReturnType<PluginRunnerClient['invoke']>>;

function providerCall(
  plugin: SignedCatalogPlugin,
  pluginId: string,
  eventId: string,
  operation: ProviderOperation | 'validate',
  payload: Record<string, unknown>,
  settings: Record<string, unknown>,
): PluginInvocation {
  return {
    context: { pluginId, versionDigest: plugin.sha256, projectId: PROJECT, eventId },
    capability: operation === 'validate' ? 'config_validator' : 'ticketing_provider',
    operation,
    payload,
    settings,
  };
}

function valueOf<T>(result: InvokeResult): T {
  if (!result.ok) {
    throw new Error(
      `${result.error.code}: ${result.error.message} ${JSON.stringify(result.error.detail)}`,
    );
  }
  return result.value as T;
}

/** The provider-error variant of a refused call: `{tag, val}`. */
function providerErrorOf(result: InvokeResult): { tag: string; val: string } {
  if (result.ok) throw new Error(`expected a provider error, got ${JSON.stringify(result.value)}`);
  expect(result.error.code).toBe('plugin_error');
  return result.error.detail as { tag: string; val: string };
}

/** Every secret of this section is absent from the runner's output and from the answers. */
function expectNoSecretIn(text: string) {
  for (const secret of Object.values(WP5_SECRETS)) expect(text).not.toContain(secret);
}

/** A ticket finding as the service sends it, with the `_ticket` member it adds to settings. */
function ticketSettings(
  base: Record<string, unknown>,
  findings: { id: string; title: string }[],
  label = `findsvc-${findings[0]!.id}`,
  extra: Record<string, unknown> = {},
) {
  return {
    ...base,
    _ticket: {
      title: findings.length === 1 ? findings[0]!.title : 'Open ports on the payment hosts',
      findings: findings.map((f) => ({ ...f, url: `https://findings.example/findings/${f.id}` })),
      label,
      ...extra,
    },
  };
}

/** The hostile answers every tracker stand-in can give, and the provider-error each must be. */
async function expectHostileAnswersRefused(
  standIn: HttpStandIn,
  invoke: () => Promise<InvokeResult>,
) {
  // A date-valued Retry-After is made when its case runs (the answer's own Date measures it).
  const cases: [() => Hostile, string, RegExp][] = [
    [() => ({ kind: 'rateLimit', retryAfter: '7' }), 'unreachable', /^retry-after:7$/],
    [
      () => ({ kind: 'rateLimit', retryAfter: new Date(Date.now() + 120_000).toUTCString() }),
      'unreachable',
      /^retry-after:1(1[5-9]|2[01])$/,
    ],
    [() => ({ kind: 'garbage' }), 'unreachable', /unexpected answer \(not JSON\)/],
    [() => ({ kind: 'huge' }), 'unreachable', /body_too_large/],
    [
      () => ({ kind: 'redirect', to: METADATA_URL }),
      'misconfigured',
      /denied: redirect_refused: .*169\.254\.169\.254.* not a permitted host/,
    ],
    [
      () => ({ kind: 'status', status: 503, body: { message: 'maintenance' } }),
      'unreachable',
      /HTTP 503/,
    ],
  ];
  try {
    for (const [make, tag, message] of cases) {
      const hostile = make();
      standIn.hostile = hostile;
      const error = providerErrorOf(await invoke());
      expect({ hostile: hostile.kind, tag: error.tag }).toEqual({ hostile: hostile.kind, tag });
      expect(error.val).toMatch(message);
    }
  } finally {
    standIn.hostile = undefined;
  }
  await standIn.down();
  try {
    expect(providerErrorOf(await invoke()).tag).toBe('unreachable');
  } finally {
    await standIn.up();
  }
  // The runner survived all of it and still serves the plugin.
  expect((await invoke()).ok).toBe(true);
}

function wp5Finding(id: string, extra: Record<string, unknown> = {}) {
  return finding(id, {
    severity: 'CRITICAL',
    rule: 'sql-injection',
    scanner: 'semgrep',
    description: 'password=hunter2 found in the request log',
    cve: 'CVE-2024-3094',
    filePath: 'src/db.ts',
    ...extra,
  });
}

describe('catalog plugin jira-provider (Jira-style REST v2/v3) in a real runner', () => {
  let jira: SignedCatalogPlugin;
  let tracker: JiraStandIn;
  const projects = Array.from({ length: 120 }, (_, i) => ({
    id: String(10100 + i),
    key: i === 0 ? 'SEC' : `P${i}`,
    name: i === 0 ? 'Security' : `Project ${i}`,
  }));
  const settings = (extra: Record<string, unknown> = {}) => ({
    base_url: tracker.url,
    project_key: 'SEC',
    email: 'bot@example.com',
    labels: 'security,findsvc',
    issuetype_by_engine: { semgrep: 'Bug', nmap: '10004' },
    value_maps: { severity: { CRITICAL: '1', HIGH: '2' } },
    ...extra,
  });
  const invoke = (
    pluginId: string,
    eventId: string,
    op: ProviderOperation,
    payload: Record<string, unknown>,
    s: Record<string, unknown>,
  ) => client.invoke(providerCall(jira, pluginId, eventId, op, payload, s));

  beforeAll(async () => {
    jira = await buildCatalogPlugin('jira-provider', publisher.privateKey);
    tracker = await startJiraStandIn({
      email: 'bot@example.com',
      apiToken: WP5_SECRETS.jiraToken,
      clientId: 'findsvc-client',
      clientSecret: WP5_SECRETS.jiraClientSecret,
      projects,
    });
    secrets['jira-1'] = { api_token: WP5_SECRETS.jiraToken };
    secrets['jira-2'] = { client_secret: WP5_SECRETS.jiraClientSecret };
    await load(jira, 'jira-1', [hostOfUrl(tracker.url)]);
    await load(jira, 'jira-2', [hostOfUrl(tracker.url)]);
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await tracker?.close();
  });

  it('is a signed wasm ticketing provider with a config validator and the spec settings, every one per project', () => {
    expect(jira.manifest).toMatchObject({
      id: 'jira-provider',
      version: '1.0.0',
      runtime: 'wasm',
      capabilities: ['ticketing_provider', 'config_validator'],
      allowed_hosts: ['auth.atlassian.com', 'api.atlassian.com'],
    });
    const names = jira.manifest.settings.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'base_url',
        'project_key',
        'auth_method',
        'email',
        'api_token',
        'client_id',
        'client_secret',
        'issue_type',
        'issuetype_id',
        'issuetype_by_engine',
        'projects',
        'labels',
        'priority_id',
        'summary_template',
        'description_template',
        'partial_summary_template',
        'partial_description_template',
        'extra_fields',
        'extra_params',
        'value_maps',
        'transition_fields',
      ]),
    );
    expect(jira.manifest.settings.every((s) => s.per_project === true)).toBe(true);
    expect(jira.manifest.settings.filter((s) => s.secret).map((s) => s.name)).toEqual([
      'api_token',
      'client_secret',
    ]);
  });

  it('v2 with Basic email:token: creates a labelled task, finds it by label, comments, moves it through every status and reads it back', async () => {
    const s = ticketSettings(settings(), [{ id: 'f-1', title: 'SQL injection in /login' }]);
    const ref = valueOf<{ id: string; key: string; url: string }>(
      await invoke(
        'jira-1',
        'tk-1',
        'create-task',
        { target: null, finding: wp5Finding('f-1') },
        s,
      ),
    );
    expect(ref).toEqual({ id: 'SEC-1', key: 'SEC-1', url: `${tracker.url}/browse/SEC-1` });
    const issue = tracker.issues.get('SEC-1')!;
    expect(issue.fields).toMatchObject({
      project: { key: 'SEC' },
      issuetype: { name: 'Bug' },
      summary: '[CRITICAL] SQL injection in /login',
      labels: ['findsvc-f-1', 'security', 'findsvc'],
      priority: { id: '1' },
    });
    expect(issue.fields['description']).toEqual(expect.stringContaining('CVE: CVE-2024-3094'));
    expect(issue.fields['description']).toEqual(
      expect.stringContaining('Finding: https://findings.example/findings/f-1'),
    );
    // The finding's description text (scanner-captured secrets) never goes to the tracker.
    expect(issue.fields['description']).not.toContain('hunter2');
    const create = tracker.requests.find(
      (r) => r.method === 'POST' && r.path === '/rest/api/2/issue',
    )!;
    expect(create.headers['authorization']).toBe(
      `Basic ${Buffer.from(`bot@example.com:${WP5_SECRETS.jiraToken}`).toString('base64')}`,
    );

    expect(
      valueOf(
        await invoke('jira-1', 'tk-2', 'find-task-by-label', { label: 'findsvc-f-1' }, settings()),
      ),
    ).toEqual(ref);
    expect(
      valueOf(
        await invoke('jira-1', 'tk-2', 'find-task-by-label', { label: 'findsvc-nope' }, settings()),
      ),
    ).toBeNull();
    expect(tracker.requests.at(-1)!.url.searchParams.get('jql')).toBe('labels = "findsvc-nope"');

    valueOf(
      await invoke(
        'jira-1',
        'tk-3',
        'add-comment',
        { taskId: 'SEC-1', body: 'status changed to fixed' },
        settings(),
      ),
    );
    expect(issue.comments).toEqual(['status changed to fixed']);

    for (const [status, raw] of [
      ['in-progress', 'In Progress'],
      ['resolved', 'Resolved'],
      ['open', 'To Do'],
      ['closed', 'Closed'],
    ] as const) {
      valueOf(
        await invoke(
          'jira-1',
          `tk-t-${status}`,
          'transition',
          { taskId: 'SEC-1', status },
          settings(),
        ),
      );
      expect(issue.status).toBe(raw);
      expect(
        valueOf(
          await invoke('jira-1', `tk-r-${status}`, 'read-status', { taskId: 'SEC-1' }, settings()),
        ),
      ).toEqual({ status, raw });
    }
  });

  it('creates one task for a group, builds task links and the semi-manual creation form, and lists the curated or all projects page by page', async () => {
    const findings = [
      wp5Finding('g-1'),
      wp5Finding('g-2', { severity: 'HIGH' }),
      wp5Finding('g-3', { severity: 'LOW' }),
    ];
    const s = ticketSettings(
      settings(),
      findings.map((f) => ({ id: f.id, title: `Title of ${f.id}` })),
      'findsvc-g-0123456789abcdef',
    );
    const ref = valueOf<{ key: string }>(
      await invoke(
        'jira-1',
        'tk-g',
        'create-group-task',
        { target: 'P7', title: 'Open ports on the payment hosts', findings },
        s,
      ),
    );
    const issue = tracker.issues.get(ref.key)!;
    expect(issue.project).toBe('P7');
    expect(issue.fields['labels']).toEqual(['findsvc-g-0123456789abcdef', 'security', 'findsvc']);
    expect(issue.fields['summary']).toBe('Open ports on the payment hosts');
    expect(String(issue.fields['description']).split('\n').slice(0, 4)).toEqual([
      '3 findings:',
      '- [CRITICAL] Title of g-1 — https://findings.example/findings/g-1',
      '- [HIGH] Title of g-2 — https://findings.example/findings/g-2',
      '- [LOW] Title of g-3 — https://findings.example/findings/g-3',
    ]);

    expect(
      valueOf(await invoke('jira-1', 'tk-l', 'build-link', { taskId: ref.key }, settings())),
    ).toBe(`${tracker.url}/browse/${ref.key}`);
    const form = new URL(
      valueOf<string>(
        await invoke(
          'jira-1',
          'tk-l',
          'build-link',
          { taskId: '' },
          ticketSettings(
            settings({
              partial_summary_template: 'Look at {title} ({label})',
              issuetype_id: '10004',
            }),
            [{ id: 'f-9', title: 'Weak TLS' }],
          ),
        ),
      ),
    );
    expect(form.pathname).toBe('/secure/CreateIssueDetails!init.jspa');
    expect(Object.fromEntries(form.searchParams)).toMatchObject({
      pid: '10100',
      issuetype: '10004',
      summary: 'Look at Weak TLS (findsvc-f-9)',
      labels: 'findsvc-f-9',
    });

    const before = tracker.requests.length;
    const all = valueOf<{ id: string; name: string }[]>(
      await invoke('jira-1', 'tk-p', 'list-targets', {}, settings()),
    );
    expect(all).toHaveLength(120);
    expect(all[0]).toEqual({ id: 'SEC', name: 'Security' });
    expect(tracker.requests.slice(before).map((r) => r.path)).toEqual([
      '/rest/api/2/project/search?startAt=0&maxResults=50',
      '/rest/api/2/project/search?startAt=50&maxResults=50',
      '/rest/api/2/project/search?startAt=100&maxResults=50',
    ]);
    const curated = valueOf(
      await invoke('jira-1', 'tk-p2', 'list-targets', {}, settings({ projects: ['SEC', 'P3'] })),
    );
    expect(curated).toEqual([
      { id: 'SEC', name: 'Security' },
      { id: 'P3', name: 'Project 3' },
    ]);
  });

  it('v3 with OAuth client credentials: ADF descriptions and comments, search/jql, one token per event', async () => {
    const oauth = settings({
      auth_method: 'oauth',
      client_id: 'findsvc-client',
      api_version: '3',
      email: undefined,
    });
    const tokensBefore = tracker.issuedTokens.length;
    const ref = valueOf<{ key: string }>(
      await invoke(
        'jira-2',
        'tk-v3',
        'create-task',
        { target: null, finding: wp5Finding('f-30') },
        ticketSettings(oauth, [{ id: 'f-30', title: 'Outdated xz' }]),
      ),
    );
    valueOf(
      await invoke(
        'jira-2',
        'tk-v3',
        'add-comment',
        { taskId: ref.key, body: 'line one\nline two' },
        oauth,
      ),
    );
    expect(tracker.issuedTokens.length - tokensBefore).toBe(1);
    const issue = tracker.issues.get(ref.key)!;
    expect(issue.fields['description']).toMatchObject({ type: 'doc', version: 1 });
    expect(issue.comments.at(-1)).toEqual({
      type: 'doc',
      version: 1,
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'line one' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'line two' }] },
      ],
    });
    const create = tracker.requests.find(
      (r) => r.method === 'POST' && r.path === '/rest/api/3/issue',
    )!;
    expect(create.headers['authorization']).toBe(`Bearer ${tracker.issuedTokens.at(-1)}`);
    expect(
      valueOf<{ key: string }>(
        await invoke('jira-2', 'tk-v3b', 'find-task-by-label', { label: 'findsvc-f-30' }, oauth),
      ).key,
    ).toBe(ref.key);
    expect(tracker.requests.at(-1)!.url.pathname).toBe('/rest/api/3/search/jql');
  });

  it('parses the tracker webhooks: a status change, a comment, anything else is none, a non-JSON body is refused', async () => {
    const parse = (body: string) =>
      invoke(
        'jira-1',
        'tk-w',
        'parse-webhook',
        { headers: [{ name: 'content-type', value: 'application/json' }], body },
        settings(),
      );
    expect(
      valueOf(
        await parse(
          JSON.stringify({
            webhookEvent: 'jira:issue_updated',
            issue: {
              key: 'SEC-1',
              fields: { status: { name: 'Resolved', statusCategory: { key: 'done' } } },
            },
            changelog: {
              items: [{ field: 'status', fromString: 'In Progress', toString: 'Resolved' }],
            },
          }),
        ),
      ),
    ).toEqual({ taskId: 'SEC-1', state: { status: 'resolved', raw: 'Resolved' }, comment: null });
    expect(
      valueOf(
        await parse(
          JSON.stringify({
            webhookEvent: 'comment_created',
            issue: { key: 'SEC-1' },
            comment: { body: 'fixed in 2.1' },
          }),
        ),
      ),
    ).toEqual({ taskId: 'SEC-1', state: null, comment: 'fixed in 2.1' });
    expect(
      valueOf(
        await parse(
          JSON.stringify({
            webhookEvent: 'jira:issue_updated',
            issue: { key: 'SEC-1' },
            changelog: { items: [{ field: 'summary' }] },
          }),
        ),
      ),
    ).toBeNull();
    expect(providerErrorOf(await parse('<html>')).tag).toBe('rejected');
  });

  it('maps the tracker refusals and every hostile answer to provider errors; the runner keeps serving; egress outside the permitted hosts is refused and logged without a secret', async () => {
    secrets['jira-3'] = { api_token: 'not-the-token' };
    await load(jira, 'jira-3', [hostOfUrl(tracker.url)]);
    expect(
      providerErrorOf(
        await invoke('jira-3', 'tk-e1', 'read-status', { taskId: 'SEC-1' }, settings()),
      ),
    ).toMatchObject({ tag: 'unauthorized' });
    expect(
      providerErrorOf(
        await invoke('jira-1', 'tk-e2', 'read-status', { taskId: 'SEC-999' }, settings()),
      ),
    ).toMatchObject({ tag: 'not-found' });
    const rejected = providerErrorOf(
      await invoke(
        'jira-1',
        'tk-e3',
        'create-task',
        { target: 'NOPE', finding: wp5Finding('f-2') },
        settings(),
      ),
    );
    expect(rejected).toEqual({
      tag: 'rejected',
      val: expect.stringContaining('project: valid project is required'),
    });
    expect(
      providerErrorOf(await invoke('jira-1', 'tk-e4', 'list-targets', {}, { project_key: 'SEC' })),
    ).toEqual({ tag: 'misconfigured', val: 'setting base_url is required' });

    await expectHostileAnswersRefused(tracker, () =>
      invoke('jira-1', `tk-h-${nextWp5Event()}`, 'read-status', { taskId: 'SEC-1' }, settings()),
    );

    await load(jira, 'jira-4', []);
    secrets['jira-4'] = { api_token: WP5_SECRETS.jiraToken };
    const denied = providerErrorOf(
      await invoke('jira-4', 'tk-e5', 'read-status', { taskId: 'SEC-1' }, settings()),
    );
    expect(denied).toEqual({ tag: 'misconfigured', val: expect.stringContaining('denied') });
    const logged = await eventually(
      () =>
        runner
          .jsonLines()
          .find(
            (l) => String(l['msg']).includes('refused') && JSON.stringify(l).includes('jira-4'),
          ),
      'the refusal log line',
    );
    expect(JSON.stringify(logged)).toContain('127.0.0.1');
    expectNoSecretIn(runner.output());
  });

  it('checks a configuration before it is stored: required settings, URL form, JSON settings, the credentials of the auth method', async () => {
    const validate = (s: Record<string, unknown>) =>
      client.invoke(providerCall(jira, 'jira-1', 'tk-v', 'validate', {}, s));
    expect((await validate(settings())).ok).toBe(true);
    const refused = await validate({
      base_url: 'ftp://x',
      auth_method: 'kerberos',
      extra_fields: '{nope',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'plugin_error' } });
    expect(
      !refused.ok && (refused.error.detail as { setting: string }[]).map((p) => p.setting),
    ).toEqual(['project_key', 'base_url', 'extra_fields', 'auth_method']);
  });
});

describe('catalog plugin github-provider (GitHub and Gitea repository issues) in a real runner', () => {
  let github: SignedCatalogPlugin;
  let hub: RepoStandIn;
  let gitea: RepoStandIn;
  const hubSettings = (extra: Record<string, unknown> = {}) => ({
    owner: 'acme',
    repo: 'payments',
    api_base_url: hub.apiUrl,
    html_base_url: hub.url,
    labels: 'security',
    ...extra,
  });
  const giteaSettings = () => ({
    owner: 'acme',
    repo: 'payments',
    api_base_url: gitea.apiUrl,
    html_base_url: gitea.url,
  });
  const invoke = (
    pluginId: string,
    eventId: string,
    op: ProviderOperation,
    payload: Record<string, unknown>,
    s: Record<string, unknown>,
  ) => client.invoke(providerCall(github, pluginId, eventId, op, payload, s));

  beforeAll(async () => {
    github = await buildCatalogPlugin('github-provider', publisher.privateKey);
    hub = await startRepoStandIn({
      flavor: 'github',
      owner: 'acme',
      repo: 'payments',
      token: WP5_SECRETS.githubToken,
    });
    gitea = await startRepoStandIn({
      flavor: 'gitea',
      owner: 'acme',
      repo: 'payments',
      token: WP5_SECRETS.giteaToken,
      labels: Array.from({ length: 60 }, (_, i) => `existing-${i}`),
    });
    secrets['gh-1'] = { token: WP5_SECRETS.githubToken };
    secrets['gitea-1'] = { token: WP5_SECRETS.giteaToken };
    await load(github, 'gh-1', [hostOfUrl(hub.url)]);
    await load(github, 'gitea-1', [hostOfUrl(gitea.url)]);
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([hub?.close(), gitea?.close()]);
  });

  it('declares the spec settings of provider B: owner, repo, token (secret), api_base_url, html_base_url, labels', () => {
    expect(github.manifest).toMatchObject({
      id: 'github-provider',
      version: '1.0.0',
      capabilities: ['ticketing_provider', 'config_validator'],
    });
    expect(
      github.manifest.settings.map((s) => [s.name, s.required ?? false, s.secret ?? false]),
    ).toEqual([
      ['owner', true, false],
      ['repo', true, false],
      ['token', true, true],
      ['api_base_url', false, false],
      ['html_base_url', false, false],
      ['labels', false, false],
    ]);
  });

  it('GitHub: creates a labelled issue, finds it by label, comments, closes it completed / not planned, marks it in progress, reopens it and reads every state', async () => {
    const ref = valueOf<{ id: string; key: string; url: string }>(
      await invoke(
        'gh-1',
        'gh-a',
        'create-task',
        { target: null, finding: wp5Finding('f-1') },
        ticketSettings(hubSettings(), [{ id: 'f-1', title: 'SQL injection' }]),
      ),
    );
    expect(ref).toEqual({ id: '1', key: 'payments#1', url: `${hub.url}/acme/payments/issues/1` });
    expect(hub.issues[0]).toMatchObject({
      title: '[CRITICAL] SQL injection',
      labels: ['findsvc-f-1', 'security'],
    });
    expect(hub.issues[0]!.body).not.toContain('hunter2');
    expect(hub.requests.at(-1)!.headers['authorization']).toBe(`Bearer ${WP5_SECRETS.githubToken}`);

    expect(
      valueOf(
        await invoke('gh-1', 'gh-b', 'find-task-by-label', { label: 'findsvc-f-1' }, hubSettings()),
      ),
    ).toEqual(ref);
    expect(hub.requests.at(-1)!.path).toBe(
      '/repos/acme/payments/issues?labels=findsvc-f-1&state=all&per_page=1',
    );
    expect(
      valueOf(
        await invoke(
          'gh-1',
          'gh-b',
          'find-task-by-label',
          { label: 'findsvc-none' },
          hubSettings(),
        ),
      ),
    ).toBeNull();

    valueOf(
      await invoke(
        'gh-1',
        'gh-c',
        'add-comment',
        { taskId: '1', body: 'fixed in 2.1' },
        hubSettings(),
      ),
    );
    expect(hub.issues[0]!.comments).toEqual(['fixed in 2.1']);

    for (const [status, raw] of [
      ['in-progress', 'open/findsvc-in-progress'],
      ['resolved', 'closed/completed'],
      ['open', 'open/reopened'],
      ['closed', 'closed/not_planned'],
    ] as const) {
      valueOf(
        await invoke(
          'gh-1',
          `gh-t-${status}`,
          'transition',
          { taskId: '1', status },
          hubSettings(),
        ),
      );
      expect(
        valueOf(
          await invoke('gh-1', `gh-r-${status}`, 'read-status', { taskId: '1' }, hubSettings()),
        ),
      ).toEqual({ status, raw });
    }
    expect(hub.issues[0]!.labels).toEqual(['findsvc-f-1', 'security']);

    expect(valueOf(await invoke('gh-1', 'gh-d', 'list-targets', {}, hubSettings()))).toEqual([
      { id: 'acme/payments', name: 'acme/payments' },
    ]);
    expect(
      valueOf(await invoke('gh-1', 'gh-d', 'build-link', { taskId: '1' }, hubSettings())),
    ).toBe(`${hub.url}/acme/payments/issues/1`);
    const form = new URL(
      valueOf<string>(
        await invoke(
          'gh-1',
          'gh-d',
          'build-link',
          { taskId: '' },
          ticketSettings(hubSettings(), [{ id: 'f-5', title: 'Weak TLS' }]),
        ),
      ),
    );
    expect(form.pathname).toBe('/acme/payments/issues/new');
    expect(Object.fromEntries(form.searchParams)).toMatchObject({
      title: 'Weak TLS',
      labels: 'findsvc-f-5,security',
    });
  });

  it('GitHub: one issue for a group; webhooks X-GitHub-Event issues closed / reopened and issue_comment, other events none', async () => {
    const findings = [wp5Finding('g-1'), wp5Finding('g-2')];
    const ref = valueOf<{ id: string }>(
      await invoke(
        'gh-1',
        'gh-g',
        'create-group-task',
        { target: null, title: 'Two findings', findings },
        ticketSettings(
          hubSettings(),
          findings.map((f) => ({ id: f.id, title: f.id })),
          'findsvc-g-aaaaaaaaaaaaaaaa',
        ),
      ),
    );
    const issue = hub.issues.find((i) => String(i.number) === ref.id)!;
    expect(issue.labels).toEqual(['findsvc-g-aaaaaaaaaaaaaaaa', 'security']);
    expect(issue.body.split('\n')[0]).toBe('2 findings:');

    const parse = (event: string, body: unknown, name = 'X-GitHub-Event') =>
      invoke(
        'gh-1',
        'gh-w',
        'parse-webhook',
        { headers: [{ name, value: event }], body: JSON.stringify(body) },
        hubSettings(),
      );
    expect(
      valueOf(
        await parse('issues', {
          action: 'closed',
          issue: { number: 7, state: 'closed', state_reason: 'not_planned', labels: [] },
        }),
      ),
    ).toEqual({
      taskId: '7',
      state: { status: 'closed', raw: 'closed/not_planned' },
      comment: null,
    });
    expect(
      valueOf(
        await parse('issues', {
          action: 'reopened',
          issue: { number: 7, state: 'open', labels: [] },
        }),
      ),
    ).toEqual({ taskId: '7', state: { status: 'open', raw: 'open' }, comment: null });
    expect(
      valueOf(
        await parse('issue_comment', {
          action: 'created',
          issue: { number: 7 },
          comment: { body: 'done' },
        }),
      ),
    ).toEqual({ taskId: '7', state: null, comment: 'done' });
    expect(valueOf(await parse('issues', { action: 'labeled', issue: { number: 7 } }))).toBeNull();
    expect(valueOf(await parse('push', { ref: 'main' }))).toBeNull();
  });

  it('Gitea (api/v1): label ids from every Link page, missing labels created, closing without state_reason, X-Gitea-Event', async () => {
    const ref = valueOf<{ id: string }>(
      await invoke(
        'gitea-1',
        'gt-a',
        'create-task',
        { target: null, finding: wp5Finding('f-1') },
        ticketSettings(giteaSettings(), [{ id: 'f-1', title: 'SQL injection' }]),
      ),
    );
    const labelPages = gitea.requests.filter(
      (r) => r.method === 'GET' && r.url.pathname === '/api/v1/repos/acme/payments/labels',
    );
    expect(labelPages.map((r) => r.url.searchParams.get('page') ?? '1')).toEqual(['1', '2']);
    expect(gitea.labels.at(-1)).toEqual({ id: 61, name: 'findsvc-f-1' });
    expect(gitea.issues[0]!.labels).toEqual(['findsvc-f-1']);
    valueOf(
      await invoke(
        'gitea-1',
        'gt-b',
        'transition',
        { taskId: ref.id, status: 'in-progress' },
        giteaSettings(),
      ),
    );
    expect(
      valueOf(await invoke('gitea-1', 'gt-b', 'read-status', { taskId: ref.id }, giteaSettings())),
    ).toEqual({ status: 'in-progress', raw: 'open/findsvc-in-progress' });
    valueOf(
      await invoke(
        'gitea-1',
        'gt-c',
        'transition',
        { taskId: ref.id, status: 'resolved' },
        giteaSettings(),
      ),
    );
    expect(gitea.issues[0]).toMatchObject({ state: 'closed', labels: ['findsvc-f-1'] });
    expect(
      valueOf(
        await invoke(
          'gitea-1',
          'gt-d',
          'find-task-by-label',
          { label: 'findsvc-f-1' },
          giteaSettings(),
        ),
      ),
    ).toMatchObject({ id: ref.id });
    expect(
      valueOf(
        await invoke(
          'gitea-1',
          'gt-e',
          'parse-webhook',
          {
            headers: [{ name: 'X-Gitea-Event', value: 'issues' }],
            body: JSON.stringify({
              action: 'closed',
              issue: { number: 1, state: 'closed', labels: [] },
            }),
          },
          giteaSettings(),
        ),
      ),
    ).toEqual({ taskId: '1', state: { status: 'resolved', raw: 'closed' }, comment: null });
  });

  it("a project's own token (get-project-secret) overrides the installation's", async () => {
    secrets['gh-3'] = { token: 'ghp_installation_token_not_accepted' };
    secrets['gh-3/project'] = { token: WP5_SECRETS.githubToken };
    await load(github, 'gh-3', [hostOfUrl(hub.url)]);
    expect(valueOf(await invoke('gh-3', 'gh-p', 'list-targets', {}, hubSettings()))).toEqual([
      { id: 'acme/payments', name: 'acme/payments' },
    ]);
    delete secrets['gh-3/project'];
    expect(
      providerErrorOf(await invoke('gh-3', 'gh-p2', 'list-targets', {}, hubSettings())).tag,
    ).toBe('unauthorized');
  });

  it('a rate-limit 403 waits for X-RateLimit-Reset; refusals, hostile answers and a bad token are provider errors, no secret in the runner log', async () => {
    hub.hostile = {
      kind: 'status',
      status: 403,
      body: { message: 'API rate limit exceeded' },
      headers: {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 30),
      },
    };
    try {
      expect(
        providerErrorOf(
          await invoke('gh-1', 'gh-x', 'read-status', { taskId: '1' }, hubSettings()),
        ),
      ).toEqual({ tag: 'unreachable', val: expect.stringMatching(/^retry-after:(29|30|31)$/) });
    } finally {
      hub.hostile = undefined;
    }
    expect(
      providerErrorOf(await invoke('gh-1', 'gh-y', 'read-status', { taskId: '404' }, hubSettings()))
        .tag,
    ).toBe('not-found');
    expect(
      providerErrorOf(
        await invoke('gh-1', 'gh-y', 'read-status', { taskId: '../x' }, hubSettings()),
      ).tag,
    ).toBe('rejected');
    secrets['gh-2'] = { token: 'ghp_wrong' };
    await load(github, 'gh-2', [hostOfUrl(hub.url)]);
    expect(
      providerErrorOf(await invoke('gh-2', 'gh-z', 'list-targets', {}, hubSettings())).tag,
    ).toBe('unauthorized');
    await expectHostileAnswersRefused(hub, () =>
      invoke('gh-1', `gh-h-${nextWp5Event()}`, 'list-targets', {}, hubSettings()),
    );
    expectNoSecretIn(runner.output());
  });
});

describe('catalog plugin trello-provider (Trello-style boards) in a real runner', () => {
  let trelloPlugin: SignedCatalogPlugin;
  let board: BoardStandIn;
  const settings = (extra: Record<string, unknown> = {}) => ({
    board_id: board.boardId,
    list_name: 'To Do',
    labels: 'security',
    api_base_url: board.url,
    ...extra,
  });
  const invoke = (
    pluginId: string,
    eventId: string,
    op: ProviderOperation,
    payload: Record<string, unknown>,
    s: Record<string, unknown>,
  ) => client.invoke(providerCall(trelloPlugin, pluginId, eventId, op, payload, s));

  beforeAll(async () => {
    trelloPlugin = await buildCatalogPlugin('trello-provider', publisher.privateKey);
    board = await startBoardStandIn({
      key: WP5_SECRETS.trelloKey,
      token: WP5_SECRETS.trelloToken,
      lists: ['To Do', 'Doing', 'Done'],
    });
    secrets['trello-1'] = { api_key: WP5_SECRETS.trelloKey, api_token: WP5_SECRETS.trelloToken };
    await load(trelloPlugin, 'trello-1', [hostOfUrl(board.url)]);
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await board?.close();
  });

  it('declares the spec settings of provider C with api_key and api_token secret', () => {
    expect(
      trelloPlugin.manifest.settings.map((s) => [s.name, s.required ?? false, s.secret ?? false]),
    ).toEqual([
      ['board_id', true, false],
      ['list_name', true, false],
      ['api_key', true, true],
      ['api_token', true, true],
      ['labels', false, false],
      ['summary_template', false, false],
      ['description_template', false, false],
      ['api_base_url', false, false],
    ]);
  });

  it('creates a card in list_name with labels made on the board, comments, moves it between lists, archives it and reads each state', async () => {
    const ref = valueOf<{ id: string; key: string; url: string }>(
      await invoke(
        'trello-1',
        'tr-a',
        'create-task',
        { target: null, finding: wp5Finding('f-1') },
        ticketSettings(
          settings({ summary_template: '{severity}: {title} in {file_path} {unknown}' }),
          [{ id: 'f-1', title: 'SQL injection' }],
        ),
      ),
    );
    const card = board.cards[0]!;
    expect(ref).toEqual({
      id: card.id,
      key: card.shortLink,
      url: expect.stringMatching(/^https:\/\/trello\.com\/c\//),
    });
    expect(card.name).toBe('CRITICAL: SQL injection in src/db.ts {unknown}');
    expect(card.idList).toBe(board.lists[0]!.id);
    expect(board.labels.map((l) => l.name)).toEqual(['findsvc-f-1', 'security']);
    expect(card.idLabels).toEqual(board.labels.map((l) => l.id));
    expect(card.desc).not.toContain('hunter2');
    expect(
      board.requests.every((r) => r.url.searchParams.get('key') === WP5_SECRETS.trelloKey),
    ).toBe(true);

    valueOf(
      await invoke(
        'trello-1',
        'tr-b',
        'add-comment',
        { taskId: card.id, body: 'fixed' },
        settings(),
      ),
    );
    expect(card.comments).toEqual(['fixed']);
    for (const [status, raw] of [
      ['in-progress', 'Doing'],
      ['resolved', 'Done'],
      ['closed', 'archived'],
      ['open', 'To Do'],
    ] as const) {
      valueOf(
        await invoke(
          'trello-1',
          `tr-t-${status}`,
          'transition',
          { taskId: card.id, status },
          settings(),
        ),
      );
      expect(
        valueOf(
          await invoke(
            'trello-1',
            `tr-r-${status}`,
            'read-status',
            { taskId: card.id },
            settings(),
          ),
        ),
      ).toEqual({ status, raw });
    }
    expect(card.closed).toBe(false);
    expect(valueOf(await invoke('trello-1', 'tr-c', 'list-targets', {}, settings()))).toEqual(
      board.lists.map((l) => ({ id: l.id, name: l.name })),
    );
    const form = new URL(
      valueOf<string>(
        await invoke(
          'trello-1',
          'tr-d',
          'build-link',
          { taskId: '' },
          ticketSettings(settings(), [{ id: 'f-7', title: 'Weak TLS' }]),
        ),
      ),
    );
    expect(`${form.origin}${form.pathname}`).toBe('https://trello.com/add-card');
    expect(Object.fromEntries(form.searchParams)).toMatchObject({
      idList: board.lists[0]!.id,
      name: 'Weak TLS',
    });
  });

  it('finds a card by label across pages of 1 000 (by `before`), a group card, and the board webhooks', async () => {
    const label = { id: 'aaaaaaaaaaaaaaaaaaaaaaaa', name: 'findsvc-old' };
    board.labels.push(label);
    for (let i = 0; i < 1500; i++) {
      board.cards.push({
        id: `0000000000000000${i.toString(16).padStart(8, '0')}`,
        shortLink: `s${i.toString(16).padStart(7, '0')}`,
        name: `card ${i}`,
        desc: '',
        idList: board.lists[0]!.id,
        closed: false,
        idLabels: i === 3 ? [label.id] : [],
        comments: [],
      });
    }
    const before = board.requests.length;
    expect(
      valueOf(
        await invoke(
          'trello-1',
          'tr-f',
          'find-task-by-label',
          { label: 'findsvc-old' },
          settings(),
        ),
      ),
    ).toMatchObject({ id: '000000000000000000000003' });
    expect(
      board.requests.slice(before).filter((r) => r.url.pathname.endsWith('/cards/all')),
    ).toHaveLength(2);
    expect(
      valueOf(
        await invoke(
          'trello-1',
          'tr-f2',
          'find-task-by-label',
          { label: 'findsvc-missing' },
          settings(),
        ),
      ),
    ).toBeNull();

    const findings = [wp5Finding('g-1'), wp5Finding('g-2')];
    const group = valueOf<{ id: string }>(
      await invoke(
        'trello-1',
        'tr-g',
        'create-group-task',
        { target: board.lists[1]!.id, title: 'Two', findings },
        ticketSettings(
          settings(),
          findings.map((f) => ({ id: f.id, title: f.id })),
          'findsvc-g-bbbbbbbbbbbbbbbb',
        ),
      ),
    );
    expect(board.cards.find((c) => c.id === group.id)).toMatchObject({
      idList: board.lists[1]!.id,
      name: 'Two',
    });

    const parse = (body: unknown) =>
      invoke(
        'trello-1',
        'tr-w',
        'parse-webhook',
        { headers: [], body: JSON.stringify(body) },
        settings(),
      );
    expect(
      valueOf(
        await parse({
          action: {
            type: 'updateCard',
            data: {
              card: { id: group.id },
              listBefore: { name: 'To Do' },
              listAfter: { name: 'Done' },
            },
          },
        }),
      ),
    ).toEqual({ taskId: group.id, state: { status: 'resolved', raw: 'Done' }, comment: null });
    expect(
      valueOf(
        await parse({
          action: {
            type: 'updateCard',
            data: { card: { id: group.id, closed: true }, old: { closed: false } },
          },
        }),
      ),
    ).toEqual({ taskId: group.id, state: { status: 'closed', raw: 'archived' }, comment: null });
    expect(
      valueOf(
        await parse({
          action: { type: 'commentCard', data: { card: { id: group.id }, text: 'on it' } },
        }),
      ),
    ).toEqual({ taskId: group.id, state: null, comment: 'on it' });
    expect(
      valueOf(
        await parse({
          action: {
            type: 'updateCard',
            data: { card: { id: group.id, name: 'x' }, old: { name: 'y' } },
          },
        }),
      ),
    ).toBeNull();
    expect(valueOf(await parse({ model: { id: board.boardId } }))).toBeNull();
  });

  it('a wrong token is unauthorized, a missing list is rejected, hostile answers are provider errors; the key and token never reach a log or an answer', async () => {
    secrets['trello-2'] = { api_key: WP5_SECRETS.trelloKey, api_token: 'wrong' };
    await load(trelloPlugin, 'trello-2', [hostOfUrl(board.url)]);
    const wrong = await invoke('trello-2', 'tr-x', 'list-targets', {}, settings());
    expect(providerErrorOf(wrong).tag).toBe('unauthorized');
    const noList = await invoke(
      'trello-1',
      'tr-y',
      'create-task',
      { target: null, finding: wp5Finding('f-2') },
      settings({ list_name: 'Backlog' }),
    );
    expect(providerErrorOf(noList)).toEqual({
      tag: 'misconfigured',
      val: 'the board has no list named Backlog',
    });
    const results: InvokeResult[] = [];
    await expectHostileAnswersRefused(board, async () => {
      const r = await invoke('trello-1', `tr-h-${nextWp5Event()}`, 'list-targets', {}, settings());
      results.push(r);
      return r;
    });
    await load(trelloPlugin, 'trello-3', []);
    secrets['trello-3'] = secrets['trello-1']!;
    const denied = await invoke('trello-3', 'tr-z', 'list-targets', {}, settings());
    expect(providerErrorOf(denied).tag).toBe('misconfigured');
    expectNoSecretIn(JSON.stringify([wrong, noList, denied, ...results]));
    expectNoSecretIn(runner.output());
  });
});

describe('catalog plugin bdu-enricher (national threat-database mirror) in a real runner', () => {
  let bdu: SignedCatalogPlugin;
  let mirror: BduMirrorStandIn;
  const settings = () => ({ bdu_base_url: mirror.url });
  const enrich = (pluginId: string, eventId: string, f: Record<string, unknown>) =>
    client.invoke(call(bdu, pluginId, eventId, 'enrich', { finding: f }, settings()));

  beforeAll(async () => {
    bdu = await buildCatalogPlugin('bdu-enricher', publisher.privateKey);
    mirror = await startBduMirrorStandIn({
      token: WP5_SECRETS.bduToken,
      entries: [
        {
          id: 'BDU:2021-05969',
          name: 'Log4j remote code execution',
          severity: 'critical',
          cvss3: { score: 10, vector: 'AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H' },
          cve: ['CVE-2021-44228'],
          exploit: 'exists',
          fix: 'available',
          published: '2021-12-10',
        },
        {
          id: 'BDU:2021-06021',
          name: 'Log4j, second entry',
          severity: 'high',
          cvss3: { score: 8.1, vector: 'AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H' },
          cve: ['CVE-2021-44228', 'CVE-2021-45046'],
          exploit: 'possible',
          fix: 'available',
          published: '2021-12-15',
        },
      ],
    });
    secrets['bdu-1'] = { api_token: WP5_SECRETS.bduToken };
    await load(bdu, 'bdu-1', [hostOfUrl(mirror.url)]);
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await mirror?.close();
  });

  it('is a signed 1.0.0 enricher with a config validator; settings bdu_base_url (required url) and api_token (secret)', () => {
    expect(bdu.manifest).toMatchObject({
      id: 'bdu-enricher',
      version: '1.0.0',
      capabilities: ['finding_enricher', 'config_validator'],
      allowed_hosts: [],
    });
    expect(
      bdu.manifest.settings.map((s) => [s.name, s.type, s.required ?? false, s.secret ?? false]),
    ).toEqual([
      ['bdu_base_url', 'url', true, false],
      ['api_token', 'string', false, true],
    ]);
  });

  it('tags the database identifiers, severity, CVSS 3 score, exploit and fix of the CVE; each CVE read once per event with the bearer token', async () => {
    const before = mirror.requests.length;
    const log4j = await enrich('bdu-1', 'bdu-job-1', finding('f-1', { cve: 'cve-2021-44228' }));
    expect(tagsOf(log4j)).toEqual({
      'bdu-id': 'BDU:2021-05969,BDU:2021-06021',
      'bdu-severity': 'critical',
      'bdu-cvss3-score': '10.0',
      'bdu-exploit': 'exists',
      'bdu-fix': 'available',
    });
    expect(
      tagsOf(await enrich('bdu-1', 'bdu-job-1', finding('f-2', { cve: 'CVE-2021-44228' }))),
    ).toHaveProperty('bdu-id');
    expect(
      tagsOf(await enrich('bdu-1', 'bdu-job-1', finding('f-3', { cve: 'CVE-2021-45046' }))),
    ).toEqual({
      'bdu-id': 'BDU:2021-06021',
      'bdu-severity': 'high',
      'bdu-cvss3-score': '8.1',
      'bdu-exploit': 'possible',
      'bdu-fix': 'available',
    });
    expect(
      tagsOf(await enrich('bdu-1', 'bdu-job-1', finding('f-4', { cve: 'CVE-2020-0001' }))),
    ).toEqual({});
    expect(tagsOf(await enrich('bdu-1', 'bdu-job-1', finding('f-5')))).toEqual({});
    expect(mirror.requests.slice(before).map((r) => r.path)).toEqual([
      '/api/v1/vulnerabilities?cve=CVE-2021-44228',
      '/api/v1/vulnerabilities?cve=CVE-2021-45046',
      '/api/v1/vulnerabilities?cve=CVE-2020-0001',
    ]);
    expect(mirror.requests.at(-1)!.headers['authorization']).toBe(`Bearer ${WP5_SECRETS.bduToken}`);
  });

  it('fails the call (tags unchanged) on a refused token, 404, 5xx, HTML, a huge body, a redirect or a mirror that is down; the runner keeps serving', async () => {
    secrets['bdu-2'] = { api_token: 'wrong' };
    await load(bdu, 'bdu-2', [hostOfUrl(mirror.url)]);
    const refused = await enrich('bdu-2', 'bdu-job-2', finding('f-1', { cve: 'CVE-2021-44228' }));
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'plugin_error', message: expect.stringContaining('HTTP 401') },
    });
    const cases: [Hostile, RegExp][] = [
      [{ kind: 'status', status: 404, body: { error: 'no such route' } }, /HTTP 404/],
      [{ kind: 'status', status: 502 }, /HTTP 502/],
      [{ kind: 'garbage' }, /not JSON/],
      [{ kind: 'huge' }, /body_too_large/],
      [
        { kind: 'redirect', to: METADATA_URL },
        /redirect_refused: .*169\.254\.169\.254.* not a permitted host/,
      ],
    ];
    try {
      for (const [hostile, message] of cases) {
        mirror.hostile = hostile;
        const result = await enrich(
          'bdu-1',
          `bdu-job-${nextWp5Event()}`,
          finding('f-1', { cve: 'CVE-2021-44228' }),
        );
        expect(result).toMatchObject({ ok: false, error: { code: 'plugin_error' } });
        expect(!result.ok && result.error.message).toMatch(message);
      }
    } finally {
      mirror.hostile = undefined;
    }
    // Slower than the runner's egress time-out: the call fails, nothing hangs.
    mirror.hostile = { kind: 'slow', ms: 15_000 };
    try {
      const slow = await enrich('bdu-1', 'bdu-job-slow', finding('f-1', { cve: 'CVE-2021-44228' }));
      expect(slow.ok).toBe(false);
    } finally {
      mirror.hostile = undefined;
    }
    await mirror.down();
    try {
      const down = await enrich('bdu-1', 'bdu-job-3', finding('f-1', { cve: 'CVE-2021-44228' }));
      expect(down).toMatchObject({ ok: false, error: { code: 'plugin_error' } });
    } finally {
      await mirror.up();
    }
    expect(
      tagsOf(await enrich('bdu-1', 'bdu-job-4', finding('f-1', { cve: 'CVE-2021-44228' }))),
    ).toHaveProperty('bdu-severity', 'critical');
    expectNoSecretIn(runner.output());
  });
});
