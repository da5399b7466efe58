import type { IpRange } from './ip-address';

/**
 * The rules one guard applies. Each user reads them from its own settings, validated at boot
 * (`readEgressPolicy`): the runner from PLUGIN_EGRESS_*, the findings service's outgoing calls
 * from OUTBOUND_*; the catalog download builds its own from PLUGIN_CATALOG_*.
 */
export interface EgressPolicy {
  /** `<PREFIX>_ALLOW_HTTP`: plain `http:` URLs allowed (default false: https only). */
  allowHttp: boolean;
  /** `<PREFIX>_ALLOW_LOCAL_DIAL`: loopback/private/link-local/CGNAT/ULA addresses allowed. */
  allowLocalDial: boolean;
  /** `<PREFIX>_ALLOWLIST`: when non-empty, every dialled address must be inside one range. */
  allowlist: readonly IpRange[];
  /** `<PREFIX>_TIMEOUT_MS`: whole call (DNS, connect, TLS, redirects, body). */
  timeoutMs: number;
  /** `<PREFIX>_MAX_REQUEST_BYTES`: request body cap. */
  maxRequestBytes: number;
  /** `<PREFIX>_MAX_RESPONSE_BYTES`: response body cap. */
  maxResponseBytes: number;
  /** `<PREFIX>_MAX_REDIRECTS`: hops followed (each re-checked); 0 passes 3xx through. */
  maxRedirects: number;
}

export const DEFAULT_EGRESS_POLICY: EgressPolicy = {
  allowHttp: false,
  allowLocalDial: false,
  allowlist: [],
  timeoutMs: 10_000,
  maxRequestBytes: 1024 * 1024,
  maxResponseBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
};
