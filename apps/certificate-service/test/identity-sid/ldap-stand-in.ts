import type { AddressInfo } from 'node:net';
import * as ldap from 'ldapjs';

/** One directory entry: its DN and attributes (a Buffer is sent as binary). */
export interface StandInEntry {
  dn: string;
  attributes: Record<string, string | Buffer>;
}

export interface LdapStandInOptions {
  baseDn: string;
  bindDn: string;
  bindPassword: string;
  entries: StandInEntry[];
  /** TLS (ldaps) with this certificate and key (PEM). */
  tls?: { certificate: string; key: string };
}

type Next = (error?: unknown) => void;

interface FilterLike {
  constructor: { name: string };
  attribute?: string;
  value?: unknown;
  matches(object: Record<string, string>, strict?: boolean): boolean;
  toString(): string;
}

/**
 * ldapjs 3's server keeps an equality filter's value in its RFC 4515 string form (`\2a` for a
 * `*` that came as a byte); compare the decoded bytes, as a directory does. Other filter kinds
 * (what an injection would produce) are evaluated by ldapjs itself.
 */
function matches(filter: FilterLike, entry: Record<string, string>): boolean {
  if (filter.constructor.name !== 'EqualityFilter' || typeof filter.value !== 'string') {
    return filter.matches(entry);
  }
  const bytes: number[] = [];
  for (const part of filter.value.matchAll(/\\([0-9a-fA-F]{2})|([^\\]+)/g)) {
    if (part[1]) bytes.push(parseInt(part[1], 16));
    else bytes.push(...Buffer.from(part[2], 'utf8'));
  }
  const wanted = Buffer.from(bytes).toString('utf8');
  const key = Object.keys(entry).find((name) => name === filter.attribute);
  return key !== undefined && entry[key] === wanted;
}

interface BindRequestLike {
  dn: { toString(): string };
  credentials: string;
}

interface SearchRequestLike {
  dn: { toString(): string };
  scope: string;
  filter: FilterLike;
  connection: { ldap: { bindDN: { toString(): string } } };
}

interface SearchResponseLike {
  attributes: string[];
  send(entry: { dn: string; attributes: Record<string, unknown> }, noFiltering?: boolean): void;
  end(): void;
}

/**
 * A real LDAP server on loopback (ldapjs) holding a few entries: a bind with the configured DN
 * and password is required before a search; searches evaluate the filter the client sent
 * (as decoded from BER) against each entry under the base DN. Records every filter it saw.
 */
export class LdapStandIn {
  private constructor(
    private readonly server: ldap.Server,
    readonly port: number,
    private readonly seen: { filters: string[]; binds: number },
  ) {}

  /** Every search filter received, in the server's RFC 4515 string form. */
  get filters(): string[] {
    return this.seen.filters;
  }

  get binds(): number {
    return this.seen.binds;
  }

  static async start(options: LdapStandInOptions): Promise<LdapStandIn> {
    const server = ldap.createServer(
      options.tls ? { certificate: options.tls.certificate, key: options.tls.key } : {},
    );
    const seen = { filters: [] as string[], binds: 0 };
    server.bind(options.baseDn, (rawReq: unknown, res: { end(): void }, next: Next) => {
      const req = rawReq as BindRequestLike;
      seen.binds += 1;
      if (req.dn.toString() !== options.bindDn || req.credentials !== options.bindPassword) {
        return next(new ldap.InvalidCredentialsError());
      }
      res.end();
      return next();
    });
    server.search(options.baseDn, (rawReq: unknown, rawRes: unknown, next: Next) => {
      const req = rawReq as SearchRequestLike;
      const res = rawRes as SearchResponseLike;
      if (req.connection.ldap.bindDN.toString() !== options.bindDn) {
        return next(new ldap.InsufficientAccessRightsError());
      }
      seen.filters.push(req.filter.toString());
      // ldapjs compares requested attribute names lower-cased
      res.attributes = res.attributes.map((name) => name.toLowerCase());
      for (const entry of options.entries) {
        const comparable = Object.fromEntries(
          Object.entries(entry.attributes)
            .filter(([, value]) => typeof value === 'string')
            .flatMap(([name, value]) => [
              [name, value as string],
              [name.toLowerCase(), value as string],
            ]),
        );
        const base = req.dn.toString();
        const inScope = req.scope === 'base' ? entry.dn === base : entry.dn.endsWith(base);
        if (inScope && matches(req.filter, comparable)) {
          res.send({
            dn: entry.dn,
            attributes: Object.fromEntries(
              Object.entries(entry.attributes).map(([name, value]) => [name, [value]]),
            ),
          });
        }
      }
      if (req.scope === 'base' && req.dn.toString() === options.baseDn) {
        res.send({ dn: options.baseDn, attributes: { objectClass: ['domain'] } });
      }
      res.end();
      return next();
    });
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () =>
        resolve((server as unknown as { address(): AddressInfo }).address().port),
      ),
    );
    return new LdapStandIn(server, port, seen);
  }

  url(scheme: 'ldap' | 'ldaps' = 'ldap', host = '127.0.0.1'): string {
    return `${scheme}://${host}:${this.port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
    });
  }
}
