import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  ANY_HOST,
  checkEgressUrl,
  normaliseHost,
  systemResolver,
  type EgressDenials,
  type EgressResolver,
} from '@platform/egress';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { FindingsMetrics } from '../../app/metrics/findings-metrics';
import { OUTBOUND_RESOLVER } from '../outbound-http/outbound-http.client';
import { outboundDenials } from '../outbound-http/outbound-denials';

/** A mail server's address that passed the request-forgery guard. */
export interface SmtpTarget {
  /** The checked address the connection is pinned to (never resolved again). */
  address: string;
  port: number;
  /**
   * The name the certificate must match (the configured host name); undefined for a host
   * given as an address, whose certificate must then name that address.
   */
  servername?: string;
}

/** The guard refused the mail server (reason as in findsvc_outbound_denials_total). */
export class SmtpTargetRefused extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'SmtpTargetRefused';
  }
}

const LABELS = { subject: 'mail server', allowlist: 'OUTBOUND_ALLOWLIST' };

function urlOf(host: string, port: number): string {
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}/`;
}

/**
 * Every SMTP connection goes through the service's shared request-forgery guard
 * (@platform/egress under OUTBOUND_*, the same policy as OutboundHttpClient): the host's form
 * and name class, then its addresses resolved once, each one checked (local and internal
 * addresses refused unless OUTBOUND_ALLOW_LOCAL_DIAL; OUTBOUND_ALLOWLIST applied); the
 * connection is pinned to the first admitted address and verifies the certificate against
 * the configured name.
 */
@Injectable()
export class SmtpTargets {
  private readonly logger = new Logger('Mail');
  private readonly denials: EgressDenials;
  private readonly resolver: EgressResolver;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    metrics: FindingsMetrics,
    @Optional() @Inject(OUTBOUND_RESOLVER) resolver?: EgressResolver,
  ) {
    this.denials = outboundDenials(metrics.registry);
    this.resolver = resolver ?? systemResolver;
  }

  async check(host: string, port: number): Promise<SmtpTarget> {
    const form = this.admit(host, port);
    const parsed = normaliseHost(host);
    if (parsed?.kind === 'ip') return { address: form, port };
    let addresses: string[];
    try {
      addresses = await this.resolver.resolve(host);
    } catch {
      throw this.refuse('dns_failed', `${host} did not resolve`, host);
    }
    if (addresses.length === 0) throw this.refuse('dns_failed', `${host} did not resolve`, host);
    // One refused address refuses the whole answer (as the guard does for HTTP).
    const admitted = addresses.map((address) => this.admit(address, port, host));
    return { address: admitted[0] as string, port, servername: host };
  }

  /** The guard's checks of `host` (name or address); answers the address form of `host`. */
  private admit(host: string, port: number, name = host): string {
    const policy = { ...this.config.outbound, allowHttp: false };
    const checked = checkEgressUrl(
      policy,
      { caller: 'mail', permittedHosts: ANY_HOST },
      urlOf(host, port),
      LABELS,
    );
    if (!checked.ok) {
      throw this.refuse(checked.reason, checked.message.replace(host, name), name);
    }
    return checked.url.hostname.replace(/^\[|\]$/g, '');
  }

  private refuse(reason: string, message: string, host: string): SmtpTargetRefused {
    this.denials.count(reason as never);
    this.logger.warn({ host, reason }, 'mail server refused by the outbound guard');
    return new SmtpTargetRefused(reason, message);
  }
}
