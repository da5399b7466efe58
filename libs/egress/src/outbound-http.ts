import { checkEgressUrl, type EgressUrlCheck } from './egress-check';
import {
  ANY_HOST,
  type EgressContext,
  type EgressMethod,
  type EgressOutcome,
  type EgressRequest,
} from './egress-guard';
import type { EgressPolicy } from './egress-policy';
import { PinnedEgressGuard, type PinnedEgressGuardOptions } from './pinned-egress-guard';

/** How a service calls: the guard's wiring without the policy. */
export type GuardWiring = Omit<PinnedEgressGuardOptions, 'policy'>;

/**
 * One call through the guard under `policy`: every check, the connection pinned to the checked
 * address, redirects re-checked, time and size capped. Resolves to the answer or a refusal;
 * never rejects for anything the caller or the remote side controls.
 */
export function guardedRequest(
  policy: EgressPolicy,
  context: EgressContext,
  request: EgressRequest,
  wiring: GuardWiring = {},
): Promise<EgressOutcome> {
  return new PinnedEgressGuard({ ...wiring, policy }).request(context, request);
}

/** What a service sends to a URL an administrator entered. */
export interface OutboundCall {
  /** Default `GET`. */
  method?: EgressMethod;
  /** Names and values; `host`, `content-length`, hop-by-hop and `proxy-*` are refused. */
  headers?: Readonly<Record<string, string>> | ReadonlyArray<readonly [string, string]>;
  /** A string is sent as UTF-8. */
  body?: Uint8Array | string;
  /** Who calls, for the refusal log (default: the client's `caller`). */
  caller?: string;
}

/** The service-side client: URLs an administrator entered, under the service's policy. */
export interface OutboundHttp {
  /**
   * Calls `url`. An address entered by an administrator is permitted as such: any host, with
   * the address rules deciding on the URL and on every redirect hop.
   */
  request(url: string, call?: OutboundCall): Promise<EgressOutcome>;
  /** The checks that need no DNS, for validating a URL when it is saved. */
  check(url: string): EgressUrlCheck;
}

export interface OutboundHttpOptions extends PinnedEgressGuardOptions {
  /** Who calls by default (logs only), e.g. `findings-service`. */
  caller: string;
}

/** Builds the service-side client over one guard (no framework: services wrap it). */
export function createOutboundHttp(options: OutboundHttpOptions): OutboundHttp {
  const { caller, ...guardOptions } = options;
  const guard = new PinnedEgressGuard(guardOptions);
  const contextOf = (who: string): EgressContext => ({ caller: who, permittedHosts: ANY_HOST });
  return {
    request(url, call = {}) {
      const headers = call.headers === undefined ? [] : headerPairs(call.headers);
      return guard.request(contextOf(call.caller ?? caller), {
        method: call.method ?? 'GET',
        url,
        headers,
        ...(call.body === undefined
          ? {}
          : { body: typeof call.body === 'string' ? Buffer.from(call.body, 'utf8') : call.body }),
      });
    },
    check(url) {
      return checkEgressUrl(options.policy, contextOf(caller), url, options.labels);
    },
  };
}

function headerPairs(
  headers: NonNullable<OutboundCall['headers']>,
): ReadonlyArray<readonly [string, string]> {
  return isPairList(headers) ? headers : Object.entries(headers);
}

function isPairList(
  headers: NonNullable<OutboundCall['headers']>,
): headers is ReadonlyArray<readonly [string, string]> {
  return Array.isArray(headers);
}
