/**
 * Public interface of the egress guard: the one way every outgoing call of the platform
 * reaches the network (docs/egress.md) — a plugin's `http-request` host call in the runner,
 * the findings service's catalog downloads and its own calls to addresses an administrator
 * entered. The caller passes its context; the guard answers with the response or a refusal
 * carrying a stable reason code. It never throws for anything the caller or the remote side
 * controls.
 */

/**
 * `permittedHosts` value for a URL an administrator entered: any host is permitted, and the
 * address rules (scheme, host name class, every resolved address, the allowlist) still
 * decide — on the URL and on every redirect hop.
 */
export const ANY_HOST = 'any';

/** Who is calling, and where it may go. */
export interface EgressContext {
  /** Who calls: a plugin id, or a feature of a service (logs only; never decides access). */
  caller: string;
  /**
   * The permitted hosts, or `ANY_HOST`. For a plugin: the manifest's `allowed_hosts` plus the
   * hosts of the admin-entered URL settings (`permittedHostOfUrl` turns a URL setting into an
   * entry). Entries are `host` (the scheme's default port only) or `host:port`; IPv6 literals
   * in brackets (`[2001:db8::1]:8443`). Exact match after normalisation (case, trailing dot,
   * IDNA, IPv4/IPv6 literal spellings); no wildcards — an entry with `*` never matches.
   */
  permittedHosts: readonly string[] | typeof ANY_HOST;
  /**
   * The methods this caller may use (a plugin: no OPTIONS); default every `EgressMethod`.
   * Any other is refused `method_not_allowed` — counted like every refusal.
   */
  methods?: readonly EgressMethod[];
}

/** The longest URL the guard sends (characters); a longer one is refused `invalid_url`. */
export const MAX_EGRESS_URL_LENGTH = 8192;

export type EgressMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** One outgoing call as the caller asked for it. */
export interface EgressRequest {
  /** Upper-case HTTP method; anything outside `EgressMethod` is refused (`method_not_allowed`). */
  method: string;
  /** Absolute `https:` (or `http:` when the policy's `allowHttp`) URL. */
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

/**
 * Stable refusal codes: the `reason` label of `plugin_runner_egress_denials_total` (runner)
 * and `findsvc_outbound_denials_total` (findings service).
 */
export const EGRESS_REFUSAL_REASONS = [
  /** Not a valid absolute URL, longer than 8 192 characters, user-info in it, or an unparsable host. */
  'invalid_url',
  /** Scheme other than https (http only with the policy's `allowHttp`). */
  'scheme_not_allowed',
  /** Method outside GET/HEAD/POST/PUT/PATCH/DELETE/OPTIONS, or outside the caller's `methods`. */
  'method_not_allowed',
  /** A header the guard owns (host, content-length, hop-by-hop, proxy-*) or an invalid header. */
  'header_not_allowed',
  /** Request body over the policy's `maxRequestBytes`. */
  'request_too_large',
  /** Host (and port) not among the caller's permitted hosts. */
  'host_not_permitted',
  /** A special host name: localhost, cloud metadata names, *.internal, *.local, ... */
  'host_forbidden',
  /** Name did not resolve (or resolved to nothing usable). */
  'dns_failed',
  /** A resolved (or literal) address in a forbidden range: loopback, private, metadata, ... */
  'address_not_allowed',
  /** The policy's allowlist is set and no resolved address is in it. */
  'address_not_allowlisted',
  /** A redirect hop failed a check (the hop's own reason is in `cause`). */
  'redirect_refused',
  /** More redirects than the policy's `maxRedirects`. */
  'too_many_redirects',
  /** Response body over the policy's `maxResponseBytes`. */
  'body_too_large',
  /** The whole call (DNS, connect, redirects, body) exceeded the policy's `timeoutMs`. */
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
  /** Human-readable detail for the caller's log (never contains the URL's path or query). */
  message: string;
}

export type EgressOutcome = EgressResponse | EgressRefusal;

/** The guard as its users see it (the runner's `http-request` host call, services). */
export interface EgressGuard {
  request(context: EgressContext, request: EgressRequest): Promise<EgressOutcome>;
}

/** Counts refusals by reason (each user wires its own metric; the guard knows no registry). */
export interface EgressDenials {
  count(reason: EgressRefusalReason): void;
}
