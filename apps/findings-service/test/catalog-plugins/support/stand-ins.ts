import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback HTTP stand-ins that speak the API shape of the systems the catalog plugins talk
 * to: a Metabase-style table API (CMDB enricher), an NVD 2.0 / CISA KEV feed (CVE enricher)
 * and a FleetDM-style hosts/software API (fleet finding source). Each is a real HTTP server
 * on 127.0.0.1 that records what it was asked.
 */
export interface StandIn {
  url: string;
  /** `METHOD path?query` of every request, in order. */
  requests: string[];
  /** The headers of every request, in order (lower-case names). */
  headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

type Handler = (
  request: IncomingMessage,
  url: URL,
  body: string,
) => { status: number; body: unknown; headers?: Record<string, string> };

async function serve(handler: Handler): Promise<StandIn> {
  const requests: string[] = [];
  const headers: StandIn['headers'] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      requests.push(`${request.method} ${url.pathname}${url.search}`);
      headers.push({ ...request.headers });
      let answer: ReturnType<Handler>;
      try {
        answer = handler(request, url, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        answer = { status: 500, body: { error: String(error) } };
      }
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      response.writeHead(answer.status, {
        'content-type': 'application/json',
        ...(answer.headers ?? {}),
      });
      response.end(text);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    headers,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// ---------------------------------------------------------------------------------------
// Metabase-style BI/CMDB: POST /api/dataset {database, type: 'query', query: {source-table}}

export interface MetabaseTable {
  databaseId: number;
  tableId: number;
  columns: string[];
  rows: unknown[][];
}

export interface MetabaseStandIn extends StandIn {
  table: MetabaseTable;
  /** While set, every request answers this status (e.g. 503). */
  failWith?: number;
}

export async function startMetabaseStandIn(
  table: MetabaseTable,
  apiKey?: string,
): Promise<MetabaseStandIn> {
  const state: { failWith?: number; table: MetabaseTable } = { table };
  const standIn = await serve((request, url, body) => {
    if (state.failWith) return { status: state.failWith, body: 'unavailable' };
    if (apiKey && request.headers['x-api-key'] !== apiKey) {
      return { status: 401, body: 'Unauthenticated' };
    }
    if (request.method !== 'POST' || url.pathname !== '/api/dataset') {
      return { status: 404, body: 'Not found.' };
    }
    const query = JSON.parse(body) as {
      database?: number;
      type?: string;
      query?: { 'source-table'?: number };
    };
    const current = state.table;
    if (query.type !== 'query' || query.database !== current.databaseId) {
      return { status: 400, body: { error: 'Invalid query' } };
    }
    if (query.query?.['source-table'] !== current.tableId) {
      return { status: 400, body: { error: `Table ${query.query?.['source-table']} not found` } };
    }
    return {
      status: 202,
      body: {
        data: {
          rows: current.rows,
          cols: current.columns.map((name) => ({
            name,
            display_name: name,
            base_type: 'type/Text',
          })),
          native_form: { query: 'SELECT ...' },
        },
        database_id: current.databaseId,
        row_count: current.rows.length,
        status: 'completed',
      },
    };
  });
  return Object.defineProperties(standIn as MetabaseStandIn, {
    failWith: {
      get: () => state.failWith,
      set: (value: number | undefined) => (state.failWith = value),
    },
    table: { get: () => state.table, set: (value: MetabaseTable) => (state.table = value) },
  });
}

// ---------------------------------------------------------------------------------------
// NVD CVE API 2.0 + CISA KEV feed + AbuseIPDB-style reputation

export interface NvdCve {
  id: string;
  cvss31?: { baseScore: number; baseSeverity: string; vectorString: string };
  cvss2?: { baseScore: number; vectorString: string };
  cpes?: string[];
}

export interface NvdKevStandIn extends StandIn {
  kevPath: string;
}

export async function startNvdKevStandIn(options: {
  cves: NvdCve[];
  kev: { cveID: string; vendorProject: string; product: string; ransomware?: string }[];
  reputation?: Record<string, number>;
  apiKey?: string;
}): Promise<NvdKevStandIn> {
  const kevPath = '/sites/default/files/feeds/known_exploited_vulnerabilities.json';
  const standIn = await serve((request, url) => {
    if (url.pathname === '/rest/json/cves/2.0') {
      if (options.apiKey && request.headers['apikey'] !== options.apiKey) {
        return { status: 403, body: '' };
      }
      const cve = options.cves.find((c) => c.id === url.searchParams.get('cveId'));
      const metrics: Record<string, unknown> = {};
      if (cve?.cvss31) {
        metrics['cvssMetricV31'] = [
          {
            source: 'nvd@nist.gov',
            type: 'Primary',
            cvssData: { version: '3.1', ...cve.cvss31 },
            exploitabilityScore: 3.9,
          },
        ];
      }
      if (cve?.cvss2) {
        metrics['cvssMetricV2'] = [
          {
            source: 'nvd@nist.gov',
            type: 'Primary',
            cvssData: { version: '2.0', ...cve.cvss2 },
            baseSeverity: 'HIGH',
          },
        ];
      }
      return {
        status: 200,
        body: {
          resultsPerPage: cve ? 1 : 0,
          startIndex: 0,
          totalResults: cve ? 1 : 0,
          format: 'NVD_CVE',
          version: '2.0',
          timestamp: '2026-11-25T10:00:00.000',
          vulnerabilities: cve
            ? [
                {
                  cve: {
                    id: cve.id,
                    sourceIdentifier: 'cve@mitre.org',
                    vulnStatus: 'Analyzed',
                    descriptions: [{ lang: 'en', value: `${cve.id} description` }],
                    metrics,
                    configurations: [
                      {
                        nodes: [
                          {
                            operator: 'OR',
                            negate: false,
                            cpeMatch: (cve.cpes ?? []).map((criteria) => ({
                              vulnerable: true,
                              criteria,
                              matchCriteriaId: '00000000-0000-0000-0000-000000000000',
                            })),
                          },
                        ],
                      },
                    ],
                  },
                },
              ]
            : [],
        },
      };
    }
    if (url.pathname === kevPath) {
      return {
        status: 200,
        body: {
          title: 'CISA Catalog of Known Exploited Vulnerabilities',
          catalogVersion: '2026.11.25',
          count: options.kev.length,
          vulnerabilities: options.kev.map((entry) => ({
            cveID: entry.cveID,
            vendorProject: entry.vendorProject,
            product: entry.product,
            dateAdded: '2026-01-01',
            knownRansomwareCampaignUse: entry.ransomware ?? 'Unknown',
          })),
        },
      };
    }
    if (url.pathname === '/api/v2/check') {
      const ip = url.searchParams.get('ipAddress') ?? '';
      return {
        status: 200,
        body: {
          data: { ipAddress: ip, abuseConfidenceScore: options.reputation?.[ip] ?? 0 },
        },
      };
    }
    return { status: 404, body: { message: 'not found' } };
  });
  return Object.assign(standIn, { kevPath });
}

// ---------------------------------------------------------------------------------------
// FleetDM-style hosts/software API

export interface FleetHost {
  id: number;
  hostname: string;
  primary_ip: string;
  os_version?: string;
  platform?: string;
  status?: 'online' | 'offline' | 'missing' | 'new';
  team_id?: number | null;
  team_name?: string | null;
  software: {
    name: string;
    version: string;
    source?: string;
    vulnerabilities: { cve: string; cvss_score?: number; cisa_known_exploit?: boolean }[] | null;
  }[];
}

export interface FleetStandIn extends StandIn {
  hosts: FleetHost[];
  /** While set, every request answers this status. */
  failWith?: number;
}

export async function startFleetStandIn(options: {
  hosts: FleetHost[];
  token?: string;
  /** cvss scores answered by /api/v1/fleet/vulnerabilities/{cve}. */
  scores?: Record<string, number>;
  /** Seconds the stand-in's clock advances per request (its Date header). */
  secondsPerRequest?: number;
}): Promise<FleetStandIn> {
  const state: { hosts: FleetHost[]; failWith?: number } = { hosts: options.hosts };
  let clock = Date.parse('2026-11-25T10:00:00Z');
  const standIn = await serve((request, url) => {
    const date = new Date(clock).toUTCString();
    clock += (options.secondsPerRequest ?? 0) * 1000;
    const headers = { date };
    if (state.failWith) return { status: state.failWith, body: 'upstream failure', headers };
    if (options.token && request.headers['authorization'] !== `Bearer ${options.token}`) {
      return { status: 401, body: { message: 'Authentication required' }, headers };
    }
    if (url.pathname === '/api/v1/fleet/hosts') {
      const page = Number(url.searchParams.get('page') ?? '0');
      const perPage = Number(url.searchParams.get('per_page') ?? '100');
      const withSoftware = url.searchParams.get('populate_software') === 'true';
      const slice = state.hosts.slice(page * perPage, (page + 1) * perPage);
      return {
        status: 200,
        headers,
        body: {
          hosts: slice.map((host) => ({
            id: host.id,
            hostname: host.hostname,
            display_name: host.hostname,
            primary_ip: host.primary_ip,
            os_version: host.os_version ?? 'Ubuntu 22.04.4 LTS',
            platform: host.platform ?? 'ubuntu',
            status: host.status ?? 'online',
            team_id: host.team_id ?? null,
            team_name: host.team_name ?? null,
            seen_time: '2026-11-25T09:59:00Z',
            ...(withSoftware
              ? {
                  software: host.software.map((software, index) => ({
                    id: index + 1,
                    name: software.name,
                    version: software.version,
                    source: software.source ?? 'deb_packages',
                    vulnerabilities: software.vulnerabilities,
                  })),
                }
              : {}),
          })),
        },
      };
    }
    const vulnerability = /^\/api\/v1\/fleet\/vulnerabilities\/(.+)$/.exec(url.pathname);
    if (vulnerability) {
      const cve = decodeURIComponent(vulnerability[1] ?? '');
      const score = options.scores?.[cve];
      if (score === undefined) return { status: 404, body: { message: 'not found' }, headers };
      return {
        status: 200,
        headers,
        body: { vulnerability: { cve, cvss_score: score, hosts_count: 1 } },
      };
    }
    return { status: 404, body: { message: 'not found' }, headers };
  });
  return Object.defineProperties(standIn as FleetStandIn, {
    failWith: {
      get: () => state.failWith,
      set: (value: number | undefined) => (state.failWith = value),
    },
    hosts: { get: () => state.hosts, set: (value: FleetHost[]) => (state.hosts = value) },
  });
}
