/**
 * App attestation enforcement (system settings `app_attest_enforcement`, stored under
 * `policy_settings` key `app_attest`): `off` (default: not looked at), `advisory` (the verdict is
 * recorded on the request, nothing is refused), `required` (macOS enrollments without a
 * verified attestation, and Macs older than macOS 27, are refused).
 */
export const APP_ATTEST_ENFORCEMENT_STEPS = ['off', 'advisory', 'required'] as const;
export type AppAttestEnforcement = (typeof APP_ATTEST_ENFORCEMENT_STEPS)[number];

export interface AppAttestPolicy {
  enforcement: AppAttestEnforcement;
}

export function appAttestPolicyFromJson(
  value: Record<string, unknown> | null | undefined,
): AppAttestPolicy {
  if (!value) return { enforcement: 'off' };
  // An unreadable stored value must not loosen anything: the strictest step.
  const step = APP_ATTEST_ENFORCEMENT_STEPS.find((s) => s === value.enforcement);
  return { enforcement: step ?? 'required' };
}

export function appAttestPolicyToJson(policy: AppAttestPolicy): Record<string, unknown> {
  return { enforcement: policy.enforcement };
}
