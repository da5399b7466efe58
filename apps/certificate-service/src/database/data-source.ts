import { buildDataSourceOptions, type PostgresDataSourceOptions } from '@platform/database';
import { AuditRecordEntity } from '../modules/audit/audit-record.entity';
import { DeviceEntity } from '../modules/devices/device.entity';
import { LogRequestEntity } from '../modules/log-snapshots/log-request.entity';
import { LogSnapshotEntity } from '../modules/log-snapshots/log-snapshot.entity';
import { IssuanceDirectiveEntity } from '../modules/issuance-directives/issuance-directive.entity';
import { PurposeOverrideEntity } from '../modules/devices/purpose-override.entity';
import { PurposeRequestEntity } from '../modules/devices/purpose-request.entity';
import { EnrollNonceEntity } from '../modules/enrollment/enroll-nonce.entity';
import { CertificateRequestEntity } from '../modules/requests/certificate-request.entity';
import { CorpAllowlistEntryEntity } from '../modules/settings/corp-allowlist-entry.entity';
import { PolicySettingEntity } from '../modules/settings/policy-setting.entity';
import { RefreshTokenEntity } from '../modules/users/refresh-token.entity';
import { ServiceAccountEntity } from '../modules/service-accounts/service-account.entity';
import { UserRoleEntity } from '../modules/users/user-role.entity';
import { UserEntity } from '../modules/users/user.entity';
import { CaMaterialEntity } from '../modules/ca/ca-material.entity';
import { CertificateEntity } from '../modules/certificates/certificate.entity';
import { CrlStateEntity } from '../modules/crl/crl-state.entity';
import { LicenseLedgerEntryEntity } from '../modules/license/license-ledger-entry.entity';
import { LicenseSlotEntity } from '../modules/license/license-slot.entity';
import { LicenseCheckpointEntity } from '../modules/license/license-checkpoint.entity';
import { LicenseStateEntity } from '../modules/license/license-state.entity';
import { SshKeyEntity } from '../modules/ssh-keys/ssh-key.entity';
import { SshRevocationEntity } from '../modules/ssh-keys/ssh-revocation.entity';
import { PrincipalAliasEntity } from '../modules/principal-aliases/principal-alias.entity';
import { PrincipalAliasMemberEntity } from '../modules/principal-aliases/principal-alias-member.entity';
import { KeyholderTokenEntity } from '../modules/keyholder/keyholder-token.entity';
import { SshCaMaterialEntity } from '../modules/ssh/ssh-ca-material.entity';
import { SshCertificateEntity } from '../modules/ssh/ssh-certificate.entity';
import { SshKrlStateEntity } from '../modules/ssh/ssh-krl-state.entity';
import { K8sClusterEntity } from '../modules/k8s/k8s-cluster.entity';
import { K8sCredentialEntity } from '../modules/k8s/k8s-credential.entity';
import { IssuerProfileEntity } from '../modules/issuer-profiles/issuer-profile.entity';
import { WebhookEndpointEntity } from '../modules/webhooks/webhook-endpoint.entity';
import { WebhookDeliveryEntity } from '../modules/webhooks/webhook-delivery.entity';
import { RootCrlStateEntity } from '../modules/crl/root-crl-state.entity';
import { ScepPendingEntity } from '../modules/scep/scep-pending.entity';
import { NetworkEntity } from '../modules/networks/network.entity';
import { IdentityDirectoryEntity } from '../modules/identity-sid/identity-directory.entity';
import { TpmVendorRootEntity } from '../modules/tpm-roots/tpm-vendor-root.entity';
import { CERTSVC_MIGRATIONS } from './migrations';
import { AppAttestChallengeEntity } from '../modules/app-attest/app-attest-challenge.entity';
import { AppAttestationEntity } from '../modules/app-attest/app-attestation.entity';

export const CERTSVC_ENTITIES = [
  UserEntity,
  UserRoleEntity,
  RefreshTokenEntity,
  ServiceAccountEntity,
  AuditRecordEntity,
  DeviceEntity,
  PurposeOverrideEntity,
  PurposeRequestEntity,
  CertificateRequestEntity,
  EnrollNonceEntity,
  PolicySettingEntity,
  CorpAllowlistEntryEntity,
  CaMaterialEntity,
  CertificateEntity,
  CrlStateEntity,
  RootCrlStateEntity,
  LicenseLedgerEntryEntity,
  LicenseSlotEntity,
  LicenseCheckpointEntity,
  LicenseStateEntity,
  SshKeyEntity,
  SshRevocationEntity,
  PrincipalAliasEntity,
  PrincipalAliasMemberEntity,
  KeyholderTokenEntity,
  SshCaMaterialEntity,
  SshCertificateEntity,
  SshKrlStateEntity,
  K8sClusterEntity,
  K8sCredentialEntity,
  ScepPendingEntity,
  IssuerProfileEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  NetworkEntity,
  LogSnapshotEntity,
  LogRequestEntity,
  IssuanceDirectiveEntity,
  IdentityDirectoryEntity,
  TpmVendorRootEntity,
  AppAttestChallengeEntity,
  AppAttestationEntity,
];

/** Lock name shared by API replicas (which migrate) and workers (which wait). */
export const CERTSVC_MIGRATION_LOCK = 'certificate-service:migrations';

/** TypeORM options of the service's database: entities and migrations, never synchronize. */
export function certificateDataSourceOptions(
  url: string,
  applicationName = 'certificate-service',
): PostgresDataSourceOptions {
  return buildDataSourceOptions({
    url,
    entities: CERTSVC_ENTITIES,
    migrations: CERTSVC_MIGRATIONS,
    applicationName,
  });
}
