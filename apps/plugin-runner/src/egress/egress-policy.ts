import type { IpRange } from '@platform/plugin-protocol';

/** The runner-wide egress settings (PLUGIN_EGRESS_*), validated at boot by the runner's config. */
export interface EgressPolicy {
  /** PLUGIN_EGRESS_ALLOW_HTTP: plain `http:` URLs allowed (default false: https only). */
  allowHttp: boolean;
  /** PLUGIN_EGRESS_ALLOW_LOCAL_DIAL: loopback/private/link-local/CGNAT/ULA addresses allowed. */
  allowLocalDial: boolean;
  /** PLUGIN_EGRESS_ALLOWLIST: when non-empty, every dialled address must be inside one range. */
  allowlist: readonly IpRange[];
  /** PLUGIN_EGRESS_TIMEOUT_MS: whole call (DNS, connect, TLS, redirects, body). */
  timeoutMs: number;
  /** PLUGIN_EGRESS_MAX_REQUEST_BYTES: request body cap. */
  maxRequestBytes: number;
  /** PLUGIN_EGRESS_MAX_RESPONSE_BYTES: response body cap. */
  maxResponseBytes: number;
  /** PLUGIN_EGRESS_MAX_REDIRECTS: hops followed (each re-checked); 0 passes 3xx through. */
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
