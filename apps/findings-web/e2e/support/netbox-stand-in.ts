import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * NetBox's IPAM list API on loopback, as the perimeter import reads it:
 * `GET /api/ipam/prefixes/` and `/api/ipam/ip-addresses/` with `Authorization: Token <token>`
 * (403 `{"detail": "Invalid token"}` otherwise), pages of `{count, next, previous, results}`
 * with an absolute `next`. The API process reaches it with OUTBOUND_ALLOW_HTTP and
 * OUTBOUND_ALLOW_LOCAL_DIAL (e2e/global-setup.ts).
 */
export interface NetboxStandIn {
  url: string;
  /** `Authorization` headers it was sent. */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

export async function startNetboxStandIn(
  token: string,
  data: { prefixes: string[]; addresses: string[] },
  pageSize = 2,
): Promise<NetboxStandIn> {
  const authorizations: (string | undefined)[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    const url = new URL(req.url ?? '/', base);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Token ${token}`)
      return send(403, { detail: 'Invalid token' });
    const items =
      url.pathname === '/api/ipam/prefixes/'
        ? data.prefixes.map((prefix, i) => ({ id: i + 1, prefix, status: { value: 'active' } }))
        : url.pathname === '/api/ipam/ip-addresses/'
          ? data.addresses.map((address, i) => ({
              id: i + 1,
              address,
              status: { value: 'active' },
            }))
          : undefined;
    if (!items) return send(404, { detail: 'Not found.' });
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const next = new URL(url.toString());
    next.searchParams.set('offset', String(offset + pageSize));
    send(200, {
      count: items.length,
      next: offset + pageSize < items.length ? next.toString() : null,
      previous: null,
      results: items.slice(offset, offset + pageSize),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
