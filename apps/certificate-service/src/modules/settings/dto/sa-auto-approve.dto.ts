import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import type { Stored } from '../policy-settings.service';
import {
  CORP_OWNERSHIP_POLICIES,
  SA_ATTESTATION_STEPS,
  type CorpOwnershipPolicy,
  type SaAttestationStep,
  type SaAutoApprovePolicy,
} from '../sa-auto-approve.policy';

export class PutSaAutoApproveDto {
  @ApiProperty({ enum: CORP_OWNERSHIP_POLICIES })
  @IsIn(CORP_OWNERSHIP_POLICIES)
  policy!: CorpOwnershipPolicy;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description:
      'URL of the ownership webhook (https; the request-forgery guard decides, CERTSVC_WEBHOOK_EGRESS_*)',
  })
  @IsOptional()
  @ValidateIf((o: PutSaAutoApproveDto) => o.webhook_url !== null)
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true, require_tld: false })
  @MaxLength(2048)
  webhook_url?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description:
      'secret signing the ownership query (24 to 256 printable characters); absent: unchanged, null: removed. Never returned',
  })
  @IsOptional()
  @ValidateIf((o: PutSaAutoApproveDto) => o.webhook_secret !== null)
  @IsString()
  @MinLength(24)
  @MaxLength(256)
  @Matches(/^[\x21-\x7e]+$/, { message: 'webhook_secret must be printable ASCII without spaces' })
  webhook_secret?: string | null;

  @ApiPropertyOptional({
    enum: SA_ATTESTATION_STEPS,
    description:
      'hardware-attestation check of service-account approval: off, if_bound (default: a TPM-bound device must be attested), required; absent keeps the stored step',
  })
  @OptionalNotNull()
  @IsIn(SA_ATTESTATION_STEPS)
  attestation?: SaAttestationStep;

  @ApiPropertyOptional({ minimum: 100, maximum: 30000, default: 3000 })
  @OptionalNotNull()
  @IsInt()
  @Min(100)
  @Max(30000)
  webhook_timeout_ms?: number;
}

export class SaAutoApproveDto {
  @ApiProperty({ enum: CORP_OWNERSHIP_POLICIES }) policy!: CorpOwnershipPolicy;
  @ApiProperty({ enum: SA_ATTESTATION_STEPS }) attestation!: SaAttestationStep;
  @ApiProperty({ nullable: true, type: String }) webhook_url!: string | null;
  @ApiProperty() webhook_timeout_ms!: number;
  @ApiProperty({ description: 'whether a signing secret is stored (it is never returned)' })
  webhook_secret_set!: boolean;
  @ApiProperty({
    description:
      'URL and secret set; false: webhook policies refuse every service-account approval',
  })
  webhook_configured!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) updated_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) updated_by!: string | null;

  static from(stored: Stored<SaAutoApprovePolicy>): SaAutoApproveDto {
    return {
      policy: stored.value.policy,
      attestation: stored.value.attestation,
      webhook_url: stored.value.webhookUrl,
      webhook_timeout_ms: stored.value.webhookTimeoutMs,
      webhook_secret_set: stored.value.webhookSecretSealed !== null,
      webhook_configured:
        stored.value.webhookUrl !== null && stored.value.webhookSecretSealed !== null,
      updated_at: stored.updatedAt?.toISOString() ?? null,
      updated_by: stored.updatedBy,
    };
  }
}
