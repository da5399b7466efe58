import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  createOutboundHttp,
  systemResolver,
  type EgressLabels,
  type EgressOutcome,
  type EgressResolver,
  type EgressUrlCheck,
  type OutboundCall,
  type OutboundHttp,
} from '@platform/egress';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { FindingsMetrics } from '../../app/metrics/findings-metrics';
import { outboundDenials } from './outbound-denials';

/**
 * Injection token of the DNS resolver the client asks once per call. Unprovided: the system's
 * (getaddrinfo); a test provides a DNS server on loopback.
 */
export const OUTBOUND_RESOLVER = Symbol('OUTBOUND_RESOLVER');

/** How refusals and the refusal log line speak. */
const OUTBOUND_LABELS: EgressLabels = {
  subject: 'outbound call',
  callerField: 'caller',
  callerNoun: 'the caller',
  allowlist: 'OUTBOUND_ALLOWLIST',
};

/**
 * The findings service's one way to call an address an administrator entered (an IPAM's REST
 * API, a scanner's re-verification endpoint): the shared request-forgery guard of
 * @platform/egress under OUTBOUND_* (docs/egress.md). `https` only, local and internal
 * addresses refused (unless OUTBOUND_ALLOW_HTTP / OUTBOUND_ALLOW_LOCAL_DIAL), the connection
 * pinned to the address that was checked, every redirect hop re-checked, time and size capped.
 * Answers `{ok: true, status, headers, body}` or `{ok: false, reason, message}`; never throws
 * for anything the remote side controls. Refusals are counted in
 * `findsvc_outbound_denials_total{reason}` and logged with the host only.
 */
@Injectable()
export class OutboundHttpClient {
  private readonly logger = new Logger('OutboundHttp');
  private readonly http: OutboundHttp;

  constructor(
    @Inject(FINDINGS_CONFIG) config: FindingsConfig,
    metrics: FindingsMetrics,
    @Optional() @Inject(OUTBOUND_RESOLVER) resolver?: EgressResolver,
  ) {
    this.http = createOutboundHttp({
      caller: 'findings-service',
      policy: config.outbound,
      resolver: resolver ?? systemResolver,
      denials: outboundDenials(metrics.registry),
      logger: { warn: (fields, message) => this.logger.warn(fields, message) },
      labels: OUTBOUND_LABELS,
    });
  }

  /**
   * Calls `urlEnteredByAdmin` (method `GET` unless `call.method`). The URL's host is permitted
   * because an administrator entered it; the address rules decide, on it and on every redirect.
   * `call.caller` names the feature in the refusal log (`netbox-import`, `reverification`).
   */
  request(urlEnteredByAdmin: string, call?: OutboundCall): Promise<EgressOutcome> {
    return this.http.request(urlEnteredByAdmin, call);
  }

  /**
   * The checks that need no DNS (scheme, credentials, host form, local and metadata names,
   * literal addresses), for refusing a URL when an administrator saves it.
   */
  check(url: string): EgressUrlCheck {
    return this.http.check(url);
  }
}
