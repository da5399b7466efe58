import { Counter, type Registry } from 'prom-client';
import { createMetricsRegistry, HttpMetrics } from '@platform/metrics';
import type { ContentTypeEnforcement } from '../config/certsvc-config';

export const AGENT_CHANNEL_VERDICTS = [
  'tpm_activated',
  'tpm_pinned',
  'unattested',
  'refused',
] as const;
export type AgentChannelVerdict = (typeof AGENT_CHANNEL_VERDICTS)[number];

/** The service's metrics, in a registry of their own (one per app instance). */
export class CertsvcMetrics {
  readonly registry: Registry;
  readonly http: HttpMetrics;
  private readonly auditWriteFailures: Counter<'action'>;
  private readonly contentTypeViolations: Counter<'route' | 'rung'>;
  private readonly keyholderWithoutToken: Counter<'gate' | 'reason'>;
  private readonly k8sCredentials: Counter<'cluster' | 'result'>;
  private readonly agentChannelIdentity: Counter<'verdict'>;

  constructor(options: { processMetrics?: boolean } = {}) {
    this.registry = createMetricsRegistry({ defaultMetrics: options.processMetrics !== false });
    this.http = new HttpMetrics(this.registry, {
      requestsTotal: 'certsvc_http_requests_total',
      durationSeconds: 'certsvc_http_request_duration_seconds',
      statusLabel: 'status',
    });
    this.auditWriteFailures = new Counter({
      name: 'certsvc_audit_write_failures_total',
      help: 'Audit records that could not be written (the audited action happened anyway)',
      labelNames: ['action'],
      registers: [this.registry],
    });
    this.contentTypeViolations = new Counter({
      name: 'certsvc_content_type_violations_total',
      help: 'Requests with a body that is not application/json, by route and enforcement step',
      labelNames: ['route', 'rung'],
      registers: [this.registry],
    });
    this.keyholderWithoutToken = new Counter({
      name: 'certsvc_keyholder_requests_without_token_total',
      help: 'Key-holder API requests without a valid server token, by token gate step and reason (missing, invalid)',
      labelNames: ['gate', 'reason'],
      registers: [this.registry],
    });
    this.k8sCredentials = new Counter({
      name: 'certsvc_k8s_credentials_total',
      help: 'Kubernetes credential broker calls by cluster (registry name; empty when not found) and result (issued, or the refusal code)',
      labelNames: ['cluster', 'result'],
      registers: [this.registry],
    });
    this.agentChannelIdentity = new Counter({
      name: 'certsvc_agent_channel_identity_total',
      help: 'How POST /enroll identified the agent: tpm_activated (EK chain and a fresh credential activation), tpm_pinned (the pinned AK, quote over the nonce), unattested (no hardware evidence, allowed by policy), refused',
      labelNames: ['verdict'],
      registers: [this.registry],
    });
    // Every series exists from the start, so a dashboard sees 0 rather than no data.
    for (const verdict of AGENT_CHANNEL_VERDICTS) this.agentChannelIdentity.inc({ verdict }, 0);
    for (const gate of ['observe', 'required']) {
      for (const reason of ['missing', 'invalid'])
        this.keyholderWithoutToken.inc({ gate, reason }, 0);
    }
  }

  auditWriteFailed(action: string): void {
    this.auditWriteFailures.inc({ action });
  }

  contentTypeViolation(route: string, rung: ContentTypeEnforcement): void {
    this.contentTypeViolations.inc({ route, rung });
  }

  /** One broker call: `issued` or the refusal code. */
  k8sCredential(cluster: string, result: string): void {
    this.k8sCredentials.inc({ cluster, result });
  }

  /** One enrollment's channel-identity verdict. */
  agentChannelIdentified(verdict: AgentChannelVerdict): void {
    this.agentChannelIdentity.inc({ verdict });
  }

  /** A key-holder request without a valid token under the `observe` or `required` step. */
  keyholderRequestWithoutToken(gate: 'observe' | 'required', reason: 'missing' | 'invalid'): void {
    this.keyholderWithoutToken.inc({ gate, reason });
  }
}
