/**
 * Enroll source-auth steps, weakest first:
 * - `off`: nothing is refused; the result of a signature check is only recorded;
 * - `version_floor`: agents below `minAgentVersion` are refused;
 * - `attestation_hardgate`: a signature of the exact request body with the CSR key is required;
 * - `strict`: the hard gate plus the full TPM attestation chain on Windows and Linux (the
 *   signature only on macOS); a key not proven TPM-resident is refused there.
 */
export const SOURCE_AUTH_MODES = [
  'off',
  'version_floor',
  'attestation_hardgate',
  'strict',
] as const;
export type SourceAuthMode = (typeof SOURCE_AUTH_MODES)[number];

export interface EnrollSourceAuthPolicy {
  mode: SourceAuthMode;
  /** Lowest accepted agent version (used by `version_floor`). */
  minAgentVersion: string | null;
}

export const DEFAULT_SOURCE_AUTH: EnrollSourceAuthPolicy = { mode: 'off', minAgentVersion: null };

export function sourceAuthFromJson(
  value: Record<string, unknown> | undefined,
): EnrollSourceAuthPolicy {
  if (!value) return DEFAULT_SOURCE_AUTH;
  const mode = SOURCE_AUTH_MODES.find((m) => m === value.mode) ?? 'off';
  const floor = value.min_agent_version;
  return { mode, minAgentVersion: typeof floor === 'string' ? floor : null };
}

export function sourceAuthToJson(policy: EnrollSourceAuthPolicy): Record<string, unknown> {
  return { mode: policy.mode, min_agent_version: policy.minAgentVersion };
}
