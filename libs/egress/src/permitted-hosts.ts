import { hostKey, normaliseHost } from './egress-host';

/** One parsed permitted-host entry: normalised host and the port it opens (undefined: the scheme's default). */
export interface PermittedHost {
  host: string;
  port?: number;
}

const ENTRY = /^[^/?#@\s\\*]+$/;

/**
 * Parses a permitted-host entry: `host` or `host:port`, IPv6 in brackets. Names are
 * matched exactly after normalisation (case, trailing dot, IDNA); IP literals by address.
 * No wildcards: an entry containing `*`, a path, user-info or whitespace is invalid and
 * opens nothing. Undefined for an invalid entry.
 */
export function parsePermittedHost(entry: string): PermittedHost | undefined {
  const trimmed = entry.trim();
  if (!ENTRY.test(trimmed)) return undefined;
  let url: URL;
  try {
    url = new URL(`https://${trimmed}/`);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  const host = normaliseHost(url.hostname);
  if (!host) return undefined;
  const explicitPort = /:(\d+)$/.exec(trimmed);
  return { host: hostKey(host), port: explicitPort ? Number(explicitPort[1]) : undefined };
}

/**
 * The permitted-host entry an admin-entered URL setting grants: its host, with the port
 * when the URL names a non-default one. Undefined when the value is not an http(s) URL.
 */
export function permittedHostOfUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const host = normaliseHost(url.hostname);
  if (!host) return undefined;
  const text =
    host.kind === 'ip' && host.address.family === 6 ? `[${hostKey(host)}]` : hostKey(host);
  return url.port === '' ? text : `${text}:${url.port}`;
}

/** Default port of a scheme the guard speaks. */
export function defaultPort(protocol: 'https:' | 'http:'): number {
  return protocol === 'https:' ? 443 : 80;
}

/**
 * Whether `host` (normalised key) and `port` are permitted. An entry without a port opens
 * the default ports (443, and 80 where plain http is allowed at all); `host:port` opens
 * exactly that port.
 */
export function isPermitted(
  entries: readonly PermittedHost[],
  host: string,
  port: number,
): boolean {
  return entries.some(
    (entry) =>
      entry.host === host &&
      (entry.port === undefined ? port === 443 || port === 80 : entry.port === port),
  );
}
