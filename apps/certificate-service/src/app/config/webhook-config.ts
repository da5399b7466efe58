import { createHash } from 'node:crypto';
import type { EnvReader } from '@platform/config';
import { readEgressPolicy, type EgressPolicy } from '@platform/egress';
import { parseKeyEncryptionKey } from '@platform/pki';

/** Outgoing webhooks: the outbox worker and the guard its calls pass (docs/certificate-service/webhooks.md). */
export interface CertsvcWebhookConfig {
  /** `CERTSVC_WEBHOOKS_ENABLED`: events are written to the outbox and the worker delivers them. */
  enabled: boolean;
  /** `CERTSVC_WEBHOOK_POLL_SECONDS` (10): how often the worker looks for due deliveries. */
  pollSeconds: number;
  /** `CERTSVC_WEBHOOK_MAX_ATTEMPTS` (6): attempts before a delivery becomes `failed`. */
  maxAttempts: number;
  /** `CERTSVC_WEBHOOK_RETENTION_DAYS` (30): deliveries older than this are purged. */
  retentionDays: number;
  /**
   * `CERTSVC_WEBHOOK_ENC_KEY` (32 bytes, hex or base64): seals endpoint and corp-ownership
   * webhook secrets (AES-256-GCM); never logged. Undefined: secrets cannot be saved.
   */
  encryptionKey: Buffer | undefined;
  /** True when dev mode derived the key (no `CERTSVC_WEBHOOK_ENC_KEY`). */
  encryptionKeyDerived: boolean;
  /**
   * `CERTSVC_WEBHOOK_EGRESS_*` (docs/egress.md): the request-forgery guard of every webhook
   * call. Redirects are never followed (a 3xx is a failed attempt).
   */
  egress: EgressPolicy;
}

export function readWebhookConfig(r: EnvReader, devMode: boolean): CertsvcWebhookConfig {
  const enabled = r.bool('CERTSVC_WEBHOOKS_ENABLED', false);
  const key = webhookKey(r, devMode, enabled);
  const policy = readEgressPolicy(r, 'CERTSVC_WEBHOOK_EGRESS');
  return {
    enabled,
    pollSeconds: r.int('CERTSVC_WEBHOOK_POLL_SECONDS', 10, { min: 1, max: 3600 }),
    maxAttempts: r.int('CERTSVC_WEBHOOK_MAX_ATTEMPTS', 6, { min: 1, max: 100 }),
    retentionDays: r.int('CERTSVC_WEBHOOK_RETENTION_DAYS', 30, { min: 1, max: 3650 }),
    encryptionKey: key?.key,
    encryptionKeyDerived: key?.derived ?? false,
    egress: {
      ...policy,
      // A receiver's answer is read only for its status: 64 KiB unless set otherwise.
      maxResponseBytes:
        r.raw('CERTSVC_WEBHOOK_EGRESS_MAX_RESPONSE_BYTES') === undefined
          ? 64 * 1024
          : policy.maxResponseBytes,
      maxRedirects: 0,
    },
  };
}

function webhookKey(
  r: EnvReader,
  devMode: boolean,
  enabled: boolean,
): { key: Buffer; derived: boolean } | undefined {
  const configured = r.optionalString('CERTSVC_WEBHOOK_ENC_KEY');
  if (configured === undefined) {
    if (devMode) {
      return {
        key: createHash('sha256').update('certsvc dev-mode webhook secret key v1').digest(),
        derived: true,
      };
    }
    if (enabled)
      r.problem('CERTSVC_WEBHOOK_ENC_KEY is required with CERTSVC_WEBHOOKS_ENABLED=true');
    return undefined;
  }
  try {
    return { key: parseKeyEncryptionKey(configured), derived: false };
  } catch {
    r.problem('CERTSVC_WEBHOOK_ENC_KEY must be 32 bytes, hex or base64');
    return undefined;
  }
}
