import { ApiProperty } from '@nestjs/swagger';

export class HealthDto {
  @ApiProperty({ example: 'ok' }) status!: 'ok';
}

export class VersionDto {
  @ApiProperty({ example: '0.1.20260101120000+abc1234', description: 'X.Y.BUILD+COMMIT' })
  version!: string;
  @ApiProperty({ example: 'abc1234' }) commit!: string;
  @ApiProperty({ format: 'date-time' }) built_at!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'release tag of the server image (CERTSVC_IMAGE_TAG); null for a source build',
  })
  image_tag!: string | null;
}

/** Each flag is true only when this build serves the feature and it is switched on. */
export class FeaturesDto {
  @ApiProperty({ description: 'local email/password sign-in (CERTSVC_LOCAL_AUTH_ENABLED)' })
  local_auth!: boolean;
  @ApiProperty({ description: 'single sign-on through an identity provider (PKCE)' })
  oidc!: boolean;
  @ApiProperty({ description: 'asynchronous issuance: some purpose issues through a SCEP CA' })
  scep!: boolean;
  @ApiProperty({ description: 'SSH certificates and key registry (/api/v1/ssh/...)' })
  ssh!: boolean;
  @ApiProperty({
    description:
      'Kubernetes credential broker (POST /api/v1/k8s/credential on its mutual-TLS listener, CERTSVC_K8S_BROKER_URL)',
  })
  k8s!: boolean;
  @ApiProperty({ description: 'outgoing webhooks (/api/v1/admin/webhooks)' }) webhooks!: boolean;
  @ApiProperty({
    description: 'Wi-Fi and wired 802.1X profiles (/api/v1/admin/networks, enroll/purposes)',
  })
  networks!: boolean;
  @ApiProperty({
    description:
      'issuance directives (/api/v1/admin/issuance-directives, checkin issuance_directives)',
  })
  issuance_directives!: boolean;
  @ApiProperty({
    description:
      'agent log snapshots (/api/v1/devices/{serial}/logs, request-logs, checkin upload_logs)',
  })
  log_snapshots!: boolean;
  @ApiProperty({
    description:
      'identity SID look-ups (POST /api/v1/enroll/identity-sid; the directory is /api/v1/settings/identity-directory)',
  })
  identity_sid!: boolean;
  @ApiProperty({
    description:
      'app attestation of Macs (POST /api/v1/enroll/app-attest/challenge and /app-attest; enforcement in the system settings)',
  })
  app_attest!: boolean;
  @ApiProperty({
    description:
      'TPM 2.0 attestation of enrollments (vendor roots at /api/v1/settings/tpm-roots; challenge in POST /api/v1/enroll/nonce)',
  })
  tpm_attestation!: boolean;
  @ApiProperty({
    description: 'enrollment-token recovery by the pinned key (POST /api/v1/enroll/token-recover)',
  })
  token_recover!: boolean;
}
