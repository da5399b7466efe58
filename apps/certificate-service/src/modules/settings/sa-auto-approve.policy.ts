/** Corp-ownership policy for approval by a service account. */
export const CORP_OWNERSHIP_POLICIES = [
  'off',
  'allowlist',
  'webhook',
  'allowlist_or_webhook',
  'allowlist_and_webhook',
] as const;
export type CorpOwnershipPolicy = (typeof CORP_OWNERSHIP_POLICIES)[number];

/**
 * The hardware-attestation check of service-account approval (the first of its checks):
 * `off` — not checked; `if_bound` (default) — a request of a TPM-bound device must be attested
 * (its own TPM evidence, or for user and SSH requests the device's pinned AK); `required` —
 * every request must be.
 */
export const SA_ATTESTATION_STEPS = ['off', 'if_bound', 'required'] as const;
export type SaAttestationStep = (typeof SA_ATTESTATION_STEPS)[number];

export interface SaAutoApprovePolicy {
  policy: CorpOwnershipPolicy;
  attestation: SaAttestationStep;
  /** Ownership webhook; null when not configured (never read as permission). */
  webhookUrl: string | null;
  webhookTimeoutMs: number;
  /**
   * Secret signing the ownership query (HMAC, as outgoing webhooks), sealed with
   * `CERTSVC_WEBHOOK_ENC_KEY`; null when not set (never read as permission). Never returned.
   */
  webhookSecretSealed: string | null;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 3000;

export const DEFAULT_SA_AUTO_APPROVE: SaAutoApprovePolicy = {
  policy: 'off',
  attestation: 'if_bound',
  webhookUrl: null,
  webhookTimeoutMs: DEFAULT_WEBHOOK_TIMEOUT_MS,
  webhookSecretSealed: null,
};

export function saAutoApproveFromJson(
  value: Record<string, unknown> | undefined,
): SaAutoApprovePolicy {
  if (!value) return DEFAULT_SA_AUTO_APPROVE;
  // An unreadable stored policy must not loosen the check: fall back to the strictest.
  const policy = CORP_OWNERSHIP_POLICIES.find((p) => p === value.policy) ?? 'allowlist_and_webhook';
  const url = value.webhook_url;
  const timeout = value.webhook_timeout_ms;
  const sealed = value.webhook_secret_sealed;
  const attestation =
    value.attestation === undefined
      ? 'if_bound'
      : (SA_ATTESTATION_STEPS.find((s) => s === value.attestation) ?? 'required');
  return {
    policy,
    attestation,
    webhookUrl: typeof url === 'string' && url !== '' ? url : null,
    webhookTimeoutMs: typeof timeout === 'number' ? timeout : DEFAULT_WEBHOOK_TIMEOUT_MS,
    webhookSecretSealed: typeof sealed === 'string' && sealed !== '' ? sealed : null,
  };
}

export function saAutoApproveToJson(policy: SaAutoApprovePolicy): Record<string, unknown> {
  return {
    policy: policy.policy,
    attestation: policy.attestation,
    webhook_url: policy.webhookUrl,
    webhook_timeout_ms: policy.webhookTimeoutMs,
    webhook_secret_sealed: policy.webhookSecretSealed,
  };
}

/** The stored policy as the audit log shows it: whether a secret is set, never the secret. */
export function saAutoApproveForAudit(policy: SaAutoApprovePolicy): Record<string, unknown> {
  const { webhook_secret_sealed: sealed, ...rest } = saAutoApproveToJson(policy);
  return { ...rest, webhook_secret_set: sealed !== null };
}

export function usesAllowlist(policy: CorpOwnershipPolicy): boolean {
  return (
    policy === 'allowlist' ||
    policy === 'allowlist_or_webhook' ||
    policy === 'allowlist_and_webhook'
  );
}

export function usesWebhook(policy: CorpOwnershipPolicy): boolean {
  return (
    policy === 'webhook' || policy === 'allowlist_or_webhook' || policy === 'allowlist_and_webhook'
  );
}
