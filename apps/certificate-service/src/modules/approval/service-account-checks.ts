import type { CorpOwnershipVerdict } from '../settings/corp-ownership-check';
import type { SaAttestationStep } from '../settings/sa-auto-approve.policy';

export type ServiceAccountRefusal =
  'attestation_required' | 'purpose_not_allowed' | 'corp_ownership_denied' | 'device_blocked';

export interface ServiceAccountCheckInput {
  /** Hardware attestation verdict under the policy's step (`attestationVerdict`). */
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

/**
 * The hardware-attestation check under the service-account policy's step: `off` never asks;
 * `if_bound` asks requests of TPM-bound devices; `required` asks every request.
 */
export function attestationVerdict(
  step: SaAttestationStep,
  request: { attested: boolean; deviceTpmBound: boolean },
): ServiceAccountCheckInput['attestation'] {
  if (step === 'off' || (step === 'if_bound' && !request.deviceTpmBound)) return 'not_required';
  return request.attested ? 'passed' : 'failed';
}
