import { rootCertificates } from 'node:tls';
import { DEFAULT_EGRESS_LABELS, Refused, type EgressLabels } from './egress-check';
import { checkExchange } from './egress-exchange';
import type {
  EgressContext,
  EgressDenials,
  EgressGuard,
  EgressOutcome,
  EgressRefusal,
  EgressRequest,
  EgressResponse,
} from './egress-guard';
import type { EgressPolicy } from './egress-policy';
import { followedLocation, hopRefused, redirectedExchange, redirectUrl } from './egress-redirects';
import { systemResolver, type EgressResolver } from './egress-resolver';
import { checkTarget, type CheckedTarget } from './egress-target';
import { errorText } from './error-text';
import { dialPinned, type PinnedTransport } from './pinned-connection';

export interface PinnedEgressGuardOptions {
  policy: EgressPolicy;
  /** Production: the system resolver (getaddrinfo). Tests: a DNS server on loopback. */
  resolver?: EgressResolver;
  /** Counts refusals by reason (the runner: `plugin_runner_egress_denials_total`). */
  denials?: EgressDenials;
  logger?: { warn(fields: object, message: string): void };
  /**
   * Extra trusted CA certificates (PEM) added to Node's bundled roots. Production trusts
   * the bundled roots plus NODE_EXTRA_CA_CERTS; tests pass their own CA here.
   */
  extraCa?: readonly string[];
  /**
   * The only trusted CA certificates (PEM), instead of the bundled roots: a server reached
   * with its own trust anchor (an EST server). TLS is verified against them, never skipped.
   */
  trustAnchors?: readonly string[];
  /** Certificate and private key (PEM) for TLS client authentication. */
  clientTls?: { cert: string; key: string };
  /** How refusals and the refusal log line name the caller and the settings. */
  labels?: Partial<EgressLabels>;
}

/**
 * The egress guard: checks the URL, the permitted host, the resolved addresses, then dials
 * exactly a checked address (the connection is opened to the IP, TLS verifies the host name)
 * and re-checks every redirect hop. Refusals are counted and logged without URL paths.
 *
 * The steps live beside it: the request's checks (`egress-exchange`), the URL and its
 * addresses (`egress-target`), the pinned connection (`pinned-connection`), the answer
 * (`egress-response`) and the next hop (`egress-redirects`).
 */
export class PinnedEgressGuard implements EgressGuard {
  private readonly policy: EgressPolicy;
  private readonly resolver: EgressResolver;
  private readonly transport: PinnedTransport;
  private readonly labels: EgressLabels;

  constructor(private readonly options: PinnedEgressGuardOptions) {
    this.policy = options.policy;
    this.resolver = options.resolver ?? systemResolver;
    this.transport = {
      ca: options.trustAnchors
        ? [...options.trustAnchors]
        : options.extraCa
          ? [...rootCertificates, ...options.extraCa]
          : undefined,
      ...(options.clientTls ? { clientTls: options.clientTls } : {}),
      policy: this.policy,
    };
    this.labels = { ...DEFAULT_EGRESS_LABELS, ...options.labels };
  }

  async request(context: EgressContext, request: EgressRequest): Promise<EgressOutcome> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.policy.timeoutMs);
    try {
      return await this.run(context, request, abort.signal);
    } catch (error) {
      const refused = abort.signal.aborted
        ? new Refused('timeout', `no complete answer within ${this.policy.timeoutMs} ms`)
        : error instanceof Refused
          ? error
          : new Refused('connect_failed', errorText(error));
      return this.refuse(context, request, refused);
    } finally {
      clearTimeout(timer);
    }
  }

  private async run(
    context: EgressContext,
    request: EgressRequest,
    signal: AbortSignal,
  ): Promise<EgressResponse> {
    let exchange = checkExchange(
      request,
      this.policy.maxRequestBytes,
      this.labels,
      context.methods,
    );
    let target = await this.check(context, request.url, signal);
    for (let hop = 0; ; hop += 1) {
      const answer = await dialPinned(target, exchange, signal, this.transport);
      const location = followedLocation(answer.status, answer.headers, this.policy.maxRedirects);
      if (location === undefined) return { ...answer, redirects: hop };
      if (hop >= this.policy.maxRedirects) {
        throw new Refused('too_many_redirects', `more than ${this.policy.maxRedirects} redirects`);
      }
      const next = redirectUrl(location, target.url);
      try {
        const nextTarget = await this.check(context, next.href, signal);
        exchange = redirectedExchange(exchange, answer.status, target, nextTarget);
        target = nextTarget;
      } catch (error) {
        if (!(error instanceof Refused) || signal.aborted) throw error;
        throw hopRefused(hop, error);
      }
    }
  }

  private check(context: EgressContext, raw: string, signal: AbortSignal): Promise<CheckedTarget> {
    return checkTarget(this.policy, this.resolver, this.labels, context, raw, signal);
  }

  private refuse(context: EgressContext, request: EgressRequest, refused: Refused): EgressRefusal {
    this.options.denials?.count(refused.reason);
    this.options.logger?.warn(
      {
        [this.labels.callerField]: context.caller,
        reason: refused.reason,
        cause: refused.hopReason,
        method: request.method,
        host: hostForLog(request.url),
      },
      `${this.labels.subject} refused: ${refused.message}`,
    );
    return {
      ok: false,
      reason: refused.reason,
      ...(refused.hopReason ? { cause: refused.hopReason } : {}),
      message: refused.message,
    };
  }
}

/** The host of a URL for logs (never the path or query: they may carry tokens). */
function hostForLog(raw: string): string | undefined {
  try {
    return new URL(raw).host;
  } catch {
    return undefined;
  }
}
