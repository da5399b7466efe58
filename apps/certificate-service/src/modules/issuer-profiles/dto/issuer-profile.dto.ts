import { ApiProperty } from '@nestjs/swagger';
import { X509_PURPOSES, type X509Purpose } from '@platform/pki';
import { CONNECTION_STEPS, type ConnectionTestResult } from '../connection-steps';
import type { IssuerProfileView } from '../issuer-settings.service';

export class IssuerSecretFlagsDto {
  @ApiProperty({ description: 'est basic: a password is stored' }) password!: boolean;
  @ApiProperty({ description: 'est client_certificate: a client key is stored' })
  client_key_pem!: boolean;
  @ApiProperty({ description: 'scep: a challenge password is stored' })
  challenge_password!: boolean;
  @ApiProperty({ description: 'scep: the requester key is stored' }) requester_key_pem!: boolean;
}

export class IssuerProfileDto {
  @ApiProperty({ enum: X509_PURPOSES }) purpose!: X509Purpose;
  @ApiProperty({ enum: ['built_in', 'scep', 'est'] }) kind!: string;
  @ApiProperty({
    enum: ['profile', 'default'],
    description: '`default`: no profile stored, `CERTSVC_ISSUER` applies',
  })
  source!: 'profile' | 'default';
  @ApiProperty({ description: 'false: this purpose cannot issue (see problem)' })
  configured!: boolean;
  @ApiProperty({ nullable: true, type: String }) problem!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'non-secret settings of the kind (docs/certificate-service/issuers.md)',
  })
  settings!: Record<string, unknown>;
  @ApiProperty({
    type: IssuerSecretFlagsDto,
    description: 'which secrets are stored (never their values)',
  })
  has_secrets!: IssuerSecretFlagsDto;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) updated_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) updated_by!: string | null;

  static from(view: IssuerProfileView): IssuerProfileDto {
    return {
      purpose: view.purpose,
      kind: view.kind,
      source: view.source,
      configured: view.configured,
      problem: view.problem,
      settings: view.settings,
      has_secrets: view.secrets as unknown as IssuerSecretFlagsDto,
      updated_at: view.updatedAt?.toISOString() ?? null,
      updated_by: view.updatedBy,
    };
  }
}

export class IssuerProfileListDto {
  @ApiProperty({ type: [IssuerProfileDto] }) items!: IssuerProfileDto[];
}

export class ConnectionStepDto {
  @ApiProperty({ enum: CONNECTION_STEPS }) step!: string;
  @ApiProperty() ok!: boolean;
  @ApiProperty() detail!: string;
}

export class ConnectionTestDto {
  @ApiProperty({ enum: X509_PURPOSES }) purpose!: X509Purpose;
  @ApiProperty({ enum: ['built_in', 'scep', 'est'] }) kind!: string;
  @ApiProperty({ description: 'every step passed' }) ok!: boolean;
  @ApiProperty({ enum: CONNECTION_STEPS, nullable: true, type: String })
  failed_step!: string | null;
  @ApiProperty({ type: [ConnectionStepDto] }) steps!: ConnectionStepDto[];

  static from(
    purpose: X509Purpose,
    result: ConnectionTestResult & { kind: string },
  ): ConnectionTestDto {
    return {
      purpose,
      kind: result.kind,
      ok: result.ok,
      failed_step: result.failedStep,
      steps: result.steps,
    };
  }
}
