import { Refused } from './egress-check';
import type { Exchange } from './egress-exchange';
import type { CheckedTarget } from './egress-target';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Dropped when a redirect leaves the origin (as browsers drop Authorization). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie']);

/**
 * The `Location` of an answer the guard follows (a redirect status with a location, while
 * redirects are allowed at all); undefined when the answer is the final one.
 */
export function followedLocation(
  status: number,
  headers: ReadonlyArray<readonly [string, string]>,
  maxRedirects: number,
): string | undefined {
  if (!REDIRECTS.has(status) || maxRedirects === 0) return undefined;
  return headers.find(([name]) => name === 'location')?.[1];
}

/** The next hop's URL: `location` against the current one; `redirect_refused` when invalid. */
export function redirectUrl(location: string, from: URL): URL {
  try {
    return new URL(location, from);
  } catch {
    throw new Refused('redirect_refused', 'redirect to an invalid URL', 'invalid_url');
  }
}

/** A check of hop `hop + 1` that refused, as the refusal of the whole call. */
export function hopRefused(hop: number, refused: Refused): Refused {
  return new Refused(
    'redirect_refused',
    `redirect hop ${hop + 1}: ${refused.message}`,
    refused.reason,
  );
}

/**
 * The next hop's method, headers and body, as fetch does it: 303 (and 301/302 after POST)
 * become GET without a body; 307/308 repeat the request. Credentials stay on the origin.
 */
export function redirectedExchange(
  exchange: Exchange,
  status: number,
  from: CheckedTarget,
  to: CheckedTarget,
): Exchange {
  const toGet =
    status === 303
      ? exchange.method !== 'HEAD'
      : (status === 301 || status === 302) && exchange.method === 'POST';
  let headers = exchange.headers;
  if (from.url.origin !== to.url.origin) {
    headers = headers.filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase()));
  }
  if (!toGet) return { ...exchange, headers };
  return {
    method: 'GET',
    headers: headers.filter(([name]) => !name.toLowerCase().startsWith('content-')),
  };
}
