/**
 * Public interface of the egress guard: the only way a plugin's `http-request` host call
 * reaches the network (docs/plugins/egress.md). The sandbox (tier 1) and the runner API pass
 * the calling plugin's context; the guard answers with the response or a refusal carrying a
 * stable reason code. It never throws for anything the plugin controls.
 */

/** Who is calling, and where it may go. */
export interface EgressContext {
  /** Plugin id from the manifest (logs only; never decides access). */
  pluginId: string;
  /**
   * The plugin's permitted hosts: the manifest's `allowed_hosts` plus the hosts of the
   * admin-entered URL settings (`permittedHostOfUrl` turns a URL setting into an entry).
   * Entries are `host` (the scheme's default port only) or `host:port`; IPv6 literals in
   * brackets (`[2001:db8::1]:8443`). Exact match after normalisation (case, trailing dot,
   * IDNA, IPv4/IPv6 literal spellings); no wildcards — an entry with `*` never matches.
   */
  permittedHosts: readonly string[];
}

export type EgressMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** One outgoing call as the plugin asked for it. */
export interface EgressRequest {
  /** Upper-case HTTP method; anything outside `EgressMethod` is refused (`method_not_allowed`). */
  method: string;
  /** Absolute `https:` (or `http:` when `PLUGIN_EGRESS_ALLOW_HTTP`) URL. */
  url: string;
  /** Header name/value pairs in order. `host`, hop-by-hop and proxy headers are refused. */
  headers?: ReadonlyArray<readonly [string, string]>;
  /** Request body; refused over the request body cap (`request_too_large`). */
  body?: Uint8Array;
}

/** The peer's answer, passed through (after redirects the guard followed, if any). */
export interface EgressResponse {
  ok: true;
  status: number;
  /** Response headers as received: lower-case names, repeated headers kept as separate pairs. */
  headers: Array<[string, string]>;
  /** Raw body bytes (not decompressed), at most the response body cap. */
  body: Uint8Array;
  /** The URL that produced this response (differs from the request's after redirects). */
  url: string;
  /** Redirect hops followed before this response. */
  redirects: number;
}

/** Stable refusal codes: the label of `plugin_runner_egress_denials_total{reason}`. */
export const EGRESS_REFUSAL_REASONS = [
  /** Not a valid absolute URL, user-info in the URL, or an unparsable host. */
  'invalid_url',
  /** Scheme other than https (http only with PLUGIN_EGRESS_ALLOW_HTTP). */
  'scheme_not_allowed',
  /** Method outside GET/HEAD/POST/PUT/PATCH/DELETE/OPTIONS. */
  'method_not_allowed',
  /** A header the guard owns (host, content-length, hop-by-hop, proxy-*) or an invalid header. */
  'header_not_allowed',
  /** Request body over PLUGIN_EGRESS_MAX_REQUEST_BYTES. */
  'request_too_large',
  /** Host (and port) not among the plugin's permitted hosts. */
  'host_not_permitted',
  /** A special host name: localhost, cloud metadata names, *.internal, *.local, ... */
  'host_forbidden',
  /** Name did not resolve (or resolved to nothing usable). */
  'dns_failed',
  /** A resolved (or literal) address in a forbidden range: loopback, private, metadata, ... */
  'address_not_allowed',
  /** PLUGIN_EGRESS_ALLOWLIST is set and no resolved address is in it. */
  'address_not_allowlisted',
  /** A redirect hop failed a check (the hop's own reason is in `cause`). */
  'redirect_refused',
  /** More redirects than PLUGIN_EGRESS_MAX_REDIRECTS. */
  'too_many_redirects',
  /** Response body over PLUGIN_EGRESS_MAX_RESPONSE_BYTES. */
  'body_too_large',
  /** The whole call (DNS, connect, redirects, body) exceeded PLUGIN_EGRESS_TIMEOUT_MS. */
  'timeout',
  /** TCP connection failed or was cut (not a policy decision). */
  'connect_failed',
  /** TLS handshake or certificate verification failed for the host name. */
  'tls_failed',
] as const;

export type EgressRefusalReason = (typeof EGRESS_REFUSAL_REASONS)[number];

export interface EgressRefusal {
  ok: false;
  reason: EgressRefusalReason;
  /** For `redirect_refused`: why the hop was refused. */
  cause?: EgressRefusalReason;
  /** Human-readable detail for the plugin's log (never contains the URL's query). */
  message: string;
}

export type EgressOutcome = EgressResponse | EgressRefusal;

/** What the `http-request` host call uses. */
export interface EgressGuard {
  request(context: EgressContext, request: EgressRequest): Promise<EgressOutcome>;
}
