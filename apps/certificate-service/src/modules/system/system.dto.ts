import { ApiProperty } from '@nestjs/swagger';

export class HealthDto {
  @ApiProperty({ example: 'ok' }) status!: 'ok';
}

export class VersionDto {
  @ApiProperty({ example: '0.1.20260101120000+abc1234', description: 'X.Y.BUILD+COMMIT' })
  version!: string;
  @ApiProperty({ example: 'abc1234' }) commit!: string;
  @ApiProperty({ format: 'date-time' }) built_at!: string;
}

export class FeaturesDto {
  @ApiProperty({ description: 'local email/password sign-in' }) local_auth!: boolean;
  @ApiProperty({ description: 'single sign-on through an identity provider (PKCE)' })
  oidc!: boolean;
  @ApiProperty({ description: 'asynchronous issuance through a SCEP CA' }) scep!: boolean;
  @ApiProperty({ description: 'SSH certificates and key registry' }) ssh!: boolean;
  @ApiProperty({ description: 'Kubernetes credential broker' }) k8s!: boolean;
  @ApiProperty({ description: 'outgoing webhooks' }) webhooks!: boolean;
}
