import type { CertsvcTpmConfig } from '../../app/config/tpm-config';
import type { PinnedTpm, TpmVerdict } from './tpm-evidence';

/** Platforms whose agents attest with a TPM; macOS attests through App Attest instead. */
export function isTpmPlatform(platform: string | null | undefined): boolean {
  const p = (platform ?? '').trim().toLowerCase();
  return !(p === 'macos' || p === 'darwin' || p === 'mac' || p.startsWith('macos'));
}

export type HardwarePolicyRefusal =
  'tpm_bound_without_evidence' | 'unattested' | 'certify_missing' | 'software_key';

/**
 * The `TPM_*` settings applied to one enrollment (docs/certificate-service/tpm-attestation.md):
 * - a device with a pinned EK or AK must keep attesting (no silent downgrade to software);
 * - `TPM_REJECT_UNATTESTED`: TPM platforms must attest;
 * - `TPM_REQUIRE_AK_CERTIFY`: attested enrollments must carry the AK's certify of the CSR key;
 * - `TPM_REJECT_SOFTWARE`: on TPM platforms the CSR key must be proven TPM-resident.
 * `verdict` is undefined when the body carried no TPM evidence; a failed verdict is refused
 * before this policy runs.
 */
export function hardwarePolicyRefusal(
  config: CertsvcTpmConfig,
  input: {
    verdict: Extract<TpmVerdict, { ok: true }> | undefined;
    platform: string | null | undefined;
    pinned: PinnedTpm | null;
  },
): HardwarePolicyRefusal | undefined {
  const { verdict } = input;
  if (!verdict) {
    if (input.pinned?.ekCertSerial || input.pinned?.akPublic) return 'tpm_bound_without_evidence';
    if (!isTpmPlatform(input.platform)) return undefined;
    if (config.rejectUnattested) return 'unattested';
    if (config.rejectSoftware) return 'software_key';
    return undefined;
  }
  if (config.requireAkCertify && !verdict.keyResident) return 'certify_missing';
  if (config.rejectSoftware && !verdict.keyResident) return 'software_key';
  return undefined;
}
