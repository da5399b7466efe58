import * as net from 'node:net';
import * as tls from 'node:tls';
import { Client, InvalidCredentialsError } from 'ldapts';
import {
  ANY_HOST,
  checkTcpTarget,
  type CheckedTcpTarget,
  type EgressPolicy,
  type EgressResolver,
} from '@platform/egress';
import { equalityFilter } from './ldap-filter';
import { sidText } from './object-sid';

/** What one look-up needs: the stored settings with the opened bind password. */
export interface DirectoryTarget {
  url: string;
  bindDn: string;
  password: string;
  baseDn: string;
  upnAttribute: string;
  sidAttribute: string;
  timeoutMs: number;
  caPem: string | null;
}

export type LookupOutcome =
  | { kind: 'found'; sid: string }
  | { kind: 'none' }
  /** More than one entry carries the UPN, or the one entry has no readable SID. */
  | { kind: 'ambiguous'; entries: number };

export type DirectoryStep = 'egress' | 'connect' | 'bind' | 'search';

/** The directory could not answer. `message` is for the server log only (never the client). */
export class DirectoryUnavailable extends Error {
  constructor(
    readonly step: DirectoryStep,
    message: string,
  ) {
    super(message);
  }
}

export interface DirectoryWiring {
  egress: EgressPolicy;
  resolver?: EgressResolver;
}

/**
 * Binds with the configured account and searches `baseDn` (subtree) for entries whose UPN
 * attribute equals `upn` (RFC 4515-escaped equality filter), asking for at most two. The
 * socket is opened to an address the request-forgery guard checked (libs/egress), never to
 * the name; ldaps verifies the server certificate (the configured CA, else the system roots)
 * for the host name. One deadline (`timeoutMs`) covers resolution, connect, bind and search.
 */
export async function lookupSid(
  target: DirectoryTarget,
  upn: string,
  wiring: DirectoryWiring,
): Promise<LookupOutcome> {
  return withDeadline(target.timeoutMs, async (signal, clients) => {
    const checked = await guard(target, wiring, signal);
    const client = await bound(target, checked, clients);
    let result;
    try {
      result = await client.search(target.baseDn, {
        scope: 'sub',
        filter: equalityFilter(target.upnAttribute, upn),
        attributes: [target.sidAttribute],
        explicitBufferAttributes: [target.sidAttribute],
        sizeLimit: 2,
        timeLimit: Math.max(1, Math.ceil(target.timeoutMs / 1000)),
      });
    } catch (error) {
      throw new DirectoryUnavailable('search', text(error));
    }
    const entries = result.searchEntries;
    if (entries.length === 0) return { kind: 'none' };
    if (entries.length > 1) return { kind: 'ambiguous', entries: entries.length };
    const sid = sidOf(entries[0], target.sidAttribute);
    return sid ? { kind: 'found', sid } : { kind: 'ambiguous', entries: 1 };
  });
}

/** The connection test: resolution, connect and bind, then a base-scope read of `baseDn`. */
export async function probeDirectory(
  target: DirectoryTarget,
  wiring: DirectoryWiring,
  report: (step: DirectoryStep, ok: boolean, detail: string) => void,
): Promise<void> {
  await withDeadline(target.timeoutMs, async (signal, clients) => {
    const checked = await guard(target, wiring, signal);
    report('egress', true, `${checked.addresses.length} checked address(es)`);
    await bound(target, checked, clients);
    report('connect', true, 'connected');
    report('bind', true, 'bound');
    try {
      await clients[0].search(target.baseDn, { scope: 'base', attributes: ['1.1'], sizeLimit: 1 });
    } catch (error) {
      throw new DirectoryUnavailable('search', text(error));
    }
    report('search', true, 'base DN readable');
  });
}

async function guard(
  target: DirectoryTarget,
  wiring: DirectoryWiring,
  signal: AbortSignal,
): Promise<CheckedTcpTarget> {
  const { host, port } = endpoint(target.url);
  const checked = await checkTcpTarget(
    wiring.egress,
    { caller: 'certificate-service identity directory', permittedHosts: ANY_HOST },
    { host, port },
    { resolver: wiring.resolver, signal },
  );
  if (!checked.ok)
    throw new DirectoryUnavailable('egress', `${checked.reason}: ${checked.message}`);
  return checked;
}

/** A client bound on the first checked address that accepts a connection. */
async function bound(
  target: DirectoryTarget,
  checked: CheckedTcpTarget,
  clients: Client[],
): Promise<Client> {
  let last: unknown;
  for (const address of checked.addresses) {
    const client = new Client({
      url: target.url,
      timeout: target.timeoutMs,
      connectTimeout: target.timeoutMs,
      strictDN: false,
      createConnection: (() =>
        net.connect({ host: address, port: checked.port, lookup: refuseLookup })) as never,
      createSecureConnection: (() =>
        tls.connect({
          host: address,
          port: checked.port,
          servername: checked.servername,
          ca: target.caPem ? [target.caPem] : undefined,
          rejectUnauthorized: true,
          lookup: refuseLookup,
        })) as never,
    });
    clients.unshift(client);
    try {
      await client.bind(target.bindDn, target.password);
      return client;
    } catch (error) {
      if (error instanceof InvalidCredentialsError) {
        throw new DirectoryUnavailable('bind', 'the directory refused the bind DN or password');
      }
      // only an address that never took the connection is skipped for the next one
      if (client.isConnected || !unreachable(error)) {
        throw new DirectoryUnavailable(client.isConnected ? 'bind' : 'connect', text(error));
      }
      last = error;
    }
  }
  throw new DirectoryUnavailable('connect', text(last));
}

/** Runs `work` under one deadline; every client it opened is closed afterwards. */
async function withDeadline<T>(
  timeoutMs: number,
  work: (signal: AbortSignal, clients: Client[]) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  const clients: Client[] = [];
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new DirectoryUnavailable('connect', `no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(abort.signal, clients), deadline]);
  } finally {
    clearTimeout(timer);
    await Promise.all(clients.map((client) => client.unbind().catch(() => undefined)));
  }
}

function endpoint(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'ldaps:';
  return {
    host: parsed.hostname,
    port: parsed.port === '' ? (secure ? 636 : 389) : Number(parsed.port),
  };
}

function sidOf(entry: Record<string, unknown>, attribute: string): string | undefined {
  const key = Object.keys(entry).find((name) => name.toLowerCase() === attribute.toLowerCase());
  const raw = key === undefined ? undefined : entry[key];
  const values = Array.isArray(raw) ? (raw as unknown[]) : raw === undefined ? [] : [raw];
  if (values.length !== 1) return undefined;
  const value = values[0];
  if (Buffer.isBuffer(value)) return sidText(value) ?? sidText(value.toString('utf8'));
  return typeof value === 'string' ? sidText(value) : undefined;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

function unreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNREACHABLE.has(code);
}

function refuseLookup(
  hostname: string,
  _options: unknown,
  callback: (error: NodeJS.ErrnoException | null, address: string, family: number) => void,
): void {
  callback(
    Object.assign(new Error(`unexpected lookup of ${hostname}`), { code: 'EPINNED' }),
    '',
    0,
  );
}

function text(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.slice(0, 500);
}
