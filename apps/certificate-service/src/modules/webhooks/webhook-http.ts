import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  createOutboundHttp,
  systemResolver,
  type EgressOutcome,
  type EgressResolver,
  type EgressUrlCheck,
  type OutboundHttp,
} from '@platform/egress';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { WebhookMetrics } from './webhook-metrics';

/**
 * Injection token of the DNS resolver webhook calls ask once per call. Unprovided: the system's
 * (getaddrinfo); a test provides a DNS server on loopback (rebinding tests).
 */
export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

/**
 * Every outgoing webhook call (outbox deliveries, the corp-ownership query) through the
 * platform's one request-forgery guard (@platform/egress, docs/egress.md) under
 * `CERTSVC_WEBHOOK_EGRESS_*`: https only, local and metadata addresses refused unless allowed,
 * the connection pinned to the checked address (DNS rebinding), no redirects, time and size
 * capped. Refusals counted in `certsvc_webhook_egress_denials_total{reason}`, logged host only.
 */
@Injectable()
export class WebhookHttp {
  private readonly logger = new Logger('WebhookHttp');
  private readonly http: OutboundHttp;
  /** Clients with a deadline of their own (the corp-ownership query's timeout), by deadline. */
  private readonly byTimeout = new Map<number, OutboundHttp>();

  constructor(
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly metrics: WebhookMetrics,
    @Optional() @Inject(WEBHOOK_RESOLVER) private readonly resolver?: EgressResolver,
  ) {
    this.http = this.client(config.webhooks.egress.timeoutMs);
  }

  private client(timeoutMs: number): OutboundHttp {
    return createOutboundHttp({
      caller: 'certificate-service-webhooks',
      policy: { ...this.config.webhooks.egress, timeoutMs },
      resolver: this.resolver ?? systemResolver,
      denials: { count: (reason) => this.metrics.egressDenials.inc({ reason }) },
      logger: { warn: (fields, message) => this.logger.warn(fields, message) },
      labels: {
        subject: 'webhook call',
        callerField: 'caller',
        callerNoun: 'the caller',
        allowlist: 'CERTSVC_WEBHOOK_EGRESS_ALLOWLIST',
      },
    });
  }

  /**
   * POSTs `body` (JSON) to `url`; answers `{ok, status, body}` or a refusal, never throws.
   * `timeoutMs` replaces the policy's deadline (`CERTSVC_WEBHOOK_EGRESS_TIMEOUT_MS`).
   */
  post(
    url: string,
    body: string,
    headers: Record<string, string>,
    options: { caller?: string; timeoutMs?: number } = {},
  ): Promise<EgressOutcome> {
    let http = this.http;
    if (
      options.timeoutMs !== undefined &&
      options.timeoutMs !== this.config.webhooks.egress.timeoutMs
    ) {
      http = this.byTimeout.get(options.timeoutMs) ?? this.client(options.timeoutMs);
      this.byTimeout.set(options.timeoutMs, http);
    }
    return http.request(url, { method: 'POST', headers, body, caller: options.caller });
  }

  /** The checks that need no DNS, for refusing a URL when it is saved. */
  check(url: string): EgressUrlCheck {
    return this.http.check(url);
  }
}
