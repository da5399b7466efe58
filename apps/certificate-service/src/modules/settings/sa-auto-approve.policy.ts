/** Corp-ownership policy for approval by a service account. */
export const CORP_OWNERSHIP_POLICIES = [
  'off',
  'allowlist',
  'webhook',
  'allowlist_or_webhook',
  'allowlist_and_webhook',
] as const;
export type CorpOwnershipPolicy = (typeof CORP_OWNERSHIP_POLICIES)[number];

export interface SaAutoApprovePolicy {
  policy: CorpOwnershipPolicy;
  /** Ownership webhook; null when not configured (never read as permission). */
  webhookUrl: string | null;
  webhookTimeoutMs: number;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 3000;

export const DEFAULT_SA_AUTO_APPROVE: SaAutoApprovePolicy = {
  policy: 'off',
  webhookUrl: null,
  webhookTimeoutMs: DEFAULT_WEBHOOK_TIMEOUT_MS,
};

export function saAutoApproveFromJson(
  value: Record<string, unknown> | undefined,
): SaAutoApprovePolicy {
  if (!value) return DEFAULT_SA_AUTO_APPROVE;
  // An unreadable stored policy must not loosen the check: fall back to the strictest.
  const policy = CORP_OWNERSHIP_POLICIES.find((p) => p === value.policy) ?? 'allowlist_and_webhook';
  const url = value.webhook_url;
  const timeout = value.webhook_timeout_ms;
  return {
    policy,
    webhookUrl: typeof url === 'string' && url !== '' ? url : null,
    webhookTimeoutMs: typeof timeout === 'number' ? timeout : DEFAULT_WEBHOOK_TIMEOUT_MS,
  };
}

export function saAutoApproveToJson(policy: SaAutoApprovePolicy): Record<string, unknown> {
  return {
    policy: policy.policy,
    webhook_url: policy.webhookUrl,
    webhook_timeout_ms: policy.webhookTimeoutMs,
  };
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
