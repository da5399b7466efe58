import type { CorpOwnershipVerdict } from '../settings/corp-ownership-check';

export type ServiceAccountRefusal =
  'attestation_required' | 'purpose_not_allowed' | 'corp_ownership_denied' | 'device_blocked';

export interface ServiceAccountCheckInput {
  /**
   * Hardware attestation verdict. No attestation policy exists yet, so callers pass
   * `not_required` (the check passes); a later policy supplies `passed` or `failed`.
   */
  attestation: 'not_required' | 'passed' | 'failed';
  purposeAllowed: boolean;
  /** `skipped` when the corp-ownership policy is `off`. */
  corpOwnership: CorpOwnershipVerdict | 'skipped';
  registeredDuringBlock: boolean;
  deviceBlocked: boolean;
}

/**
 * Approval by a service account passes, in this order (specification, Approval): hardware
 * attestation, purpose within the token's allowed list, corp ownership (a check error is
 * never permission), device block. The first failing check is reported.
 */
export function serviceAccountRefusal(
  input: ServiceAccountCheckInput,
): ServiceAccountRefusal | undefined {
  if (input.attestation === 'failed') return 'attestation_required';
  if (!input.purposeAllowed) return 'purpose_not_allowed';
  if (input.corpOwnership === 'denied' || input.corpOwnership === 'error') {
    return 'corp_ownership_denied';
  }
  if (input.registeredDuringBlock || input.deviceBlocked) return 'device_blocked';
  return undefined;
}
