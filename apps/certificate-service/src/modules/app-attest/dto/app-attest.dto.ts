import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBase64, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { MAX_APP_ATTESTATION_BYTES } from '@platform/pki';
import { SERIAL_PATTERN } from '../../../app/domain/device-serial';

/** base64 of the largest attestation object accepted. */
const MAX_ATTESTATION_CHARS = Math.ceil(MAX_APP_ATTESTATION_BYTES / 3) * 4;
export const OS_VERSION_PATTERN = /^\d{1,4}(\.\d{1,4}){0,3}$/;

export class AppAttestChallengeBodyDto {
  @ApiProperty({ example: 'C02XYZ12', description: 'serial the agent will enroll with' })
  @IsString()
  @Matches(SERIAL_PATTERN)
  serial!: string;
}

export class AppAttestChallengeDto {
  @ApiProperty({
    description:
      'one use, for this serial; the app attests with clientDataHash = SHA-256 of its UTF-8 bytes',
  })
  challenge!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}

export class AppAttestReceiptBodyDto {
  @ApiProperty({ example: 'C02XYZ12' })
  @IsString()
  @Matches(SERIAL_PATTERN)
  serial!: string;

  @ApiProperty({ description: 'from POST /enroll/app-attest/challenge for this serial; one use' })
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  challenge!: string;

  @ApiProperty({ description: 'App Attest key identifier (generateKey), base64 of 32 bytes' })
  @IsString()
  @MaxLength(64)
  @IsBase64()
  key_id!: string;

  @ApiProperty({
    description: `attestation object (attestKey), base64 of the CBOR; at most ${MAX_APP_ATTESTATION_BYTES} bytes`,
  })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_ATTESTATION_CHARS)
  @IsBase64()
  attestation!: string;

  @ApiPropertyOptional({ example: '27.0.1', description: 'macOS version, as reported' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(32)
  @Matches(OS_VERSION_PATTERN)
  os_version?: string;
}

export class AppAttestReceiptDto {
  @ApiProperty({ format: 'uuid', description: 'send as app_attestation_id with POST /enroll' })
  attestation_id!: string;
  @ApiProperty({ enum: ['verified'] }) verdict!: 'verified';
  @ApiProperty({ format: 'date-time', description: 'last moment POST /enroll can use it' })
  expires_at!: string;
}
