import type { EnvReader } from '@platform/config';

/** Hardware-key policy of `POST /enroll` (docs/certificate-service/tpm-attestation.md). */
export interface CertsvcTpmConfig {
  /** `TPM_REJECT_UNATTESTED`: an enrollment from Windows or Linux without TPM evidence is refused. */
  rejectUnattested: boolean;
  /** `TPM_REQUIRE_AK_CERTIFY`: TPM evidence must include the AK's certify of the CSR key. */
  requireAkCertify: boolean;
  /** `TPM_REJECT_SOFTWARE`: a CSR key not proven resident in a TPM is refused. */
  rejectSoftware: boolean;
}

export function readTpmConfig(r: EnvReader): CertsvcTpmConfig {
  return {
    rejectUnattested: r.bool('TPM_REJECT_UNATTESTED', false),
    requireAkCertify: r.bool('TPM_REQUIRE_AK_CERTIFY', false),
    rejectSoftware: r.bool('TPM_REJECT_SOFTWARE', false),
  };
}
