import { IdentityAndAudit1767225600000 } from './1767225600000-identity-and-audit';
import { DevicesAndEnrollment1767312000000 } from './1767312000000-devices-and-enrollment';
import { IssuanceAndLicense1767484800000 } from './1767484800000-issuance-and-license';
import { SshKeyRegistry1767600000000 } from './1767600000000-ssh-key-registry';
import { SshCertificates1767657600000 } from './1767657600000-ssh-certificates';
import { LicenseActivation1767700000000 } from './1767700000000-license-activation';
import { LicenseIntegrity1767710000000 } from './1767710000000-license-integrity';
import { LicenseSeatEnforcement1767720000000 } from './1767720000000-license-seat-enforcement';
import { K8sClusters1767744000000 } from './1767744000000-k8s-clusters';
import { K8sCredentials1795601854412 } from './1795601854412-k8s-credentials';
import { ScepPending1795700100000 } from './1795700100000-scep-pending';
import { IssuerProfiles1795700200000 } from './1795700200000-issuer-profiles';
import { CertificateChain1795700201000 } from './1795700201000-certificate-chain';
import { Webhooks1795700300000 } from './1795700300000-webhooks';
import { RootCrl1795700400000 } from './1795700400000-root-crl';
import { Networks1795700500000 } from './1795700500000-networks';
import { LogSnapshots1795700600000 } from './1795700600000-log-snapshots';
import { IssuanceDirectives1795700700000 } from './1795700700000-issuance-directives';
import { IdentityDirectory1795800200000 } from './1795800200000-identity-directory';
import { TpmVendorRoots1795800100000 } from './1795800100000-tpm-vendor-roots';
import { AppAttest1795800300000 } from './1795800300000-app-attest';
import { TpmAttestation1795800500000 } from './1795800500000-tpm-attestation';

/** Every migration, oldest first. Forward-only: never edit one that has shipped. */
export const CERTSVC_MIGRATIONS = [
  IdentityAndAudit1767225600000,
  DevicesAndEnrollment1767312000000,
  IssuanceAndLicense1767484800000,
  SshKeyRegistry1767600000000,
  SshCertificates1767657600000,
  LicenseActivation1767700000000,
  LicenseIntegrity1767710000000,
  LicenseSeatEnforcement1767720000000,
  K8sClusters1767744000000,
  K8sCredentials1795601854412,
  ScepPending1795700100000,
  IssuerProfiles1795700200000,
  CertificateChain1795700201000,
  Webhooks1795700300000,
  RootCrl1795700400000,
  Networks1795700500000,
  LogSnapshots1795700600000,
  IssuanceDirectives1795700700000,
  IdentityDirectory1795800200000,
  TpmVendorRoots1795800100000,
  AppAttest1795800300000,
  TpmAttestation1795800500000,
];
