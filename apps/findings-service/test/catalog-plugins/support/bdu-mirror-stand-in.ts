import { serveApi, type HttpStandIn } from '@platform/testing/trackers';

/**
 * A loopback mirror of the national threat database in the shape the `bdu-enricher` reads
 * (docs/plugins/catalog-plugins.md): `GET /api/v1/vulnerabilities?cve=<CVE>` →
 * `{"items": [{id, name, severity, cvss3: {score, vector}, cve: [...], exploit, fix, published}]}`,
 * an empty list for a CVE it does not know; `Authorization: Bearer <token>` when a token is set.
 * The hostile switches are those of the tracker stand-ins.
 */
export interface BduEntry {
  id: string;
  name: string;
  severity: 'critical' | 'high' | 'medium' | 'low';
  cvss3?: { score: number; vector: string };
  cve: string[];
  exploit: 'exists' | 'possible' | 'unknown';
  fix: 'available' | 'unavailable' | 'unknown';
  published: string;
}

export interface BduMirrorStandIn extends HttpStandIn {
  entries: BduEntry[];
}

export async function startBduMirrorStandIn(options: {
  entries: BduEntry[];
  token?: string;
}): Promise<BduMirrorStandIn> {
  const standIn = (await serveApi((request) => {
    if (options.token !== undefined) {
      const auth = request.headers['authorization'];
      if (auth !== `Bearer ${options.token}`)
        return { status: 401, body: { error: 'unauthorized' } };
    }
    if (request.method !== 'GET' || request.url.pathname !== '/api/v1/vulnerabilities') {
      return undefined;
    }
    const cve = (request.url.searchParams.get('cve') ?? '').toUpperCase();
    if (!/^CVE-\d{4}-\d{4,}$/.test(cve)) return { status: 400, body: { error: 'cve is required' } };
    return {
      status: 200,
      body: { items: standIn.entries.filter((e) => e.cve.includes(cve)) },
    };
  })) as BduMirrorStandIn;
  standIn.entries = options.entries;
  return standIn;
}
