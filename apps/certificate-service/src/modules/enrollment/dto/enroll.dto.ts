import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBase64,
  IsString,
  ValidateNested,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { TpmEvidenceDto } from '../../tpm-attestation/dto/tpm-evidence.dto';
import { AGENT_VERSION_PATTERN } from '../../../app/domain/agent-version';
import { EnrollText } from './enroll-text';
import { SERIAL_PATTERN } from '../../../app/domain/device-serial';
import { OS_VERSION_PATTERN } from '../../app-attest/dto/app-attest.dto';

/** Longest agent version stored (the pattern alone admits 80 characters). */
export const AGENT_VERSION_MAX_LENGTH = 64;

/** Fields every device-authenticated enroll call carries. */
export class DeviceCredentialsDto {
  @ApiProperty({ example: 'PF3XYZ12', description: 'serial claimed by the agent' })
  @IsString()
  @Matches(SERIAL_PATTERN)
  serial!: string;

  @ApiProperty({ description: 'returned by the first POST /enroll, rotatable by an administrator' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  enrollment_token!: string;
}

/** Hardware evidence and the continuity key of `POST /enroll` (tpm-attestation.md). */
export class EnrollHardwareDto {
  @ApiPropertyOptional({
    type: () => TpmEvidenceDto,
    description: 'TPM 2.0 evidence (Windows and Linux agents); see docs tpm-attestation.md',
  })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => TpmEvidenceDto)
  tpm?: TpmEvidenceDto;

  @ApiPropertyOptional({
    description: 'the agent continuity key, SPKI PEM; pinned at its first enrollment',
  })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(4000)
  continuity_key?: string;

  @ApiPropertyOptional({
    description:
      'base64 signature with the continuity key over "certsvc-continuity/v1" NUL serial NUL nonce (SHA-256; Ed25519 without digest)',
  })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(1400)
  @IsBase64()
  continuity_signature?: string;
}

export class EnrollDto extends EnrollHardwareDto {
  @ApiProperty({ description: 'PKCS#10 CSR, PEM' })
  @IsString()
  @MaxLength(24_000)
  csr!: string;

  @ApiProperty({ example: 'PF3XYZ12' })
  @IsString()
  @Matches(SERIAL_PATTERN)
  serial!: string;

  @ApiProperty({ description: 'from POST /enroll/nonce; one use' })
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  nonce!: string;

  @ApiPropertyOptional({ description: 'required when the device is already known; not null' })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  enrollment_token?: string;

  @ApiPropertyOptional({ example: '2.4.1', maxLength: AGENT_VERSION_MAX_LENGTH })
  @OptionalNotNull()
  @IsString()
  @MaxLength(AGENT_VERSION_MAX_LENGTH)
  @Matches(AGENT_VERSION_PATTERN)
  agent_version?: string;

  @ApiPropertyOptional({ example: 'windows', maxLength: 32 })
  @OptionalNotNull()
  @EnrollText(32)
  platform?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @OptionalNotNull()
  @EnrollText(255)
  hostname?: string;

  @ApiPropertyOptional({
    description:
      'from POST /enroll/source-nonce; the body including it is signed (header X-Enroll-Source-Signature)',
  })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  source_nonce?: string;

  @ApiPropertyOptional({ example: '27.0.1', description: 'OS version (macOS: app attestation)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(32)
  @Matches(OS_VERSION_PATTERN)
  os_version?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'attestation_id of POST /enroll/app-attest (macOS); one use, same serial',
  })
  @OptionalNotNull()
  @IsUUID()
  app_attestation_id?: string;
}

export class EnrollResponseDto {
  @ApiProperty({ format: 'uuid' }) request_id!: string;
  @ApiProperty({ enum: ['pending'] }) status!: 'pending';
  @ApiProperty({ enum: ['wifi'] }) purpose!: 'wifi';
  @ApiProperty() serial!: string;
  @ApiProperty({ description: 'X-Agent-Secret for the agent routes of this request; shown once' })
  agent_secret!: string;
  @ApiPropertyOptional({
    description: 'only when the device was registered by this call; shown once',
  })
  enrollment_token?: string;
}

export class NonceDto {
  @ApiProperty() nonce!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}
