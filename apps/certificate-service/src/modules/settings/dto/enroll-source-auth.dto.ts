import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { AGENT_VERSION_PATTERN } from '../../../app/domain/agent-version';
import {
  SOURCE_AUTH_MODES,
  type EnrollSourceAuthPolicy,
  type SourceAuthMode,
} from '../enroll-source-auth.policy';
import type { Stored } from '../policy-settings.service';

export class PutEnrollSourceAuthDto {
  @ApiProperty({
    enum: SOURCE_AUTH_MODES,
    description:
      '`strict`: also the TPM attestation chain on Windows and Linux (docs tpm-attestation.md); the signature only on macOS',
  })
  @IsIn(SOURCE_AUTH_MODES)
  mode!: SourceAuthMode;

  @ApiPropertyOptional({ example: '2.4.0', description: 'required for version_floor' })
  @ValidateIf(
    (o: PutEnrollSourceAuthDto) => o.mode === 'version_floor' || o.min_agent_version !== undefined,
  )
  @IsString()
  @MaxLength(64)
  @Matches(AGENT_VERSION_PATTERN)
  min_agent_version?: string;
}

export class EnrollSourceAuthDto {
  @ApiProperty({ enum: SOURCE_AUTH_MODES }) mode!: SourceAuthMode;
  @ApiProperty({ nullable: true, type: String }) min_agent_version!: string | null;
  @ApiProperty({ description: 'whether the step is enforceable on this server (every step is)' })
  available!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) updated_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) updated_by!: string | null;

  static from(stored: Stored<EnrollSourceAuthPolicy>): EnrollSourceAuthDto {
    return {
      mode: stored.value.mode,
      min_agent_version: stored.value.minAgentVersion,
      available: true,
      updated_at: stored.updatedAt?.toISOString() ?? null,
      updated_by: stored.updatedBy,
    };
  }
}
