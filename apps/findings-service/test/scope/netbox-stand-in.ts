import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server speaking the part of NetBox's REST API the perimeter import reads:
 * `GET /api/ipam/prefixes/` and `/api/ipam/ip-addresses/`, `Authorization: Token <token>`
 * (403 `{"detail": "Invalid token"}` otherwise, as NetBox answers), `limit`/`offset` paging
 * with `{count, next, previous, results}` and absolute `next` URLs, and the `tag` (every one),
 * `status` (any) and `vrf_id` filters. Tests switch it to failing (`failWith`) and read what
 * it was asked (`requests`).
 */
export interface NetboxPrefix {
  id: number;
  prefix: string;
  status?: string;
  tags?: string[];
  vrf_id?: number | null;
}

export interface NetboxAddress {
  id: number;
  address: string;
  status?: string;
  tags?: string[];
  vrf_id?: number | null;
  dns_name?: string;
}

export interface NetboxStandIn {
  url: string;
  requests: { path: string; query: URLSearchParams; authorization: string | undefined }[];
  prefixes: NetboxPrefix[];
  addresses: NetboxAddress[];
  /** Largest page the server gives (NetBox's MAX_PAGE_SIZE). */
  maxPageSize: number;
  /** Answer every request with this status and body instead. */
  failWith?: { status: number; body: string; contentType?: string };
  /** Rewrites the `next` URL (a hostile NetBox pointing elsewhere). */
  rewriteNext?: (next: string) => string;
  close(): Promise<void>;
}

function matches(
  item: { status?: string; tags?: string[]; vrf_id?: number | null },
  query: URLSearchParams,
): boolean {
  const tags = query.getAll('tag');
  if (!tags.every((t) => item.tags?.includes(t))) return false;
  const statuses = query.getAll('status');
  if (statuses.length > 0 && !statuses.includes(item.status ?? 'active')) return false;
  const vrf = query.get('vrf_id');
  if (vrf !== null) {
    const want = vrf === 'null' ? null : Number(vrf);
    if ((item.vrf_id ?? null) !== want) return false;
  }
  return true;
}

function nested(item: { id: number; status?: string; tags?: string[]; vrf_id?: number | null }) {
  return {
    id: item.id,
    url: `http://netbox/api/ipam/x/${item.id}/`,
    display: String(item.id),
    status: { value: item.status ?? 'active', label: item.status ?? 'Active' },
    vrf: item.vrf_id ? { id: item.vrf_id, name: `vrf-${item.vrf_id}` } : null,
    tags: (item.tags ?? []).map((slug) => ({ id: 1, name: slug, slug })),
    description: '',
  };
}

export async function startNetboxStandIn(token: string): Promise<NetboxStandIn> {
  const standIn: NetboxStandIn = {
    url: '',
    requests: [],
    prefixes: [],
    addresses: [],
    maxPageSize: 1000,
    close: () => Promise.resolve(),
  };
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', standIn.url);
    standIn.requests.push({
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
    });
    if (standIn.failWith) {
      res.writeHead(standIn.failWith.status, {
        'content-type': standIn.failWith.contentType ?? 'application/json',
      });
      res.end(standIn.failWith.body);
      return;
    }
    if (req.headers.authorization !== `Token ${token}`) {
      answer(res, 403, { detail: 'Invalid token' });
      return;
    }
    const list =
      url.pathname === '/api/ipam/prefixes/'
        ? standIn.prefixes.map((p) => ({ ...nested(p), prefix: p.prefix, item: p }))
        : url.pathname === '/api/ipam/ip-addresses/'
          ? standIn.addresses.map((a) => ({
              ...nested(a),
              address: a.address,
              dns_name: a.dns_name ?? '',
              item: a,
            }))
          : undefined;
    if (!list) {
      answer(res, 404, { detail: 'Not found.' });
      return;
    }
    const selected = list.filter((x) => matches(x.item, url.searchParams));
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 50), standIn.maxPageSize);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const page = selected.slice(offset, offset + limit).map(({ item: _item, ...rest }) => rest);
    const link = (at: number) => {
      const next = new URL(url.toString());
      next.searchParams.set('offset', String(at));
      next.searchParams.set('limit', String(limit));
      return next.toString();
    };
    let next = offset + limit < selected.length ? link(offset + limit) : null;
    if (next && standIn.rewriteNext) next = standIn.rewriteNext(next);
    answer(res, 200, {
      count: selected.length,
      next,
      previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
      results: page,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}
