import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';

const PEM_MAX = 64 * 1024;

/**
 * `PUT /api/v1/settings/issuers/{purpose}`: the whole profile of one purpose. Fields of the
 * other kinds are refused (`issuer_settings_invalid`). A secret left out keeps the stored one
 * (the same kind only); it is never returned.
 */
export class PutIssuerProfileDto {
  @ApiProperty({ enum: ['built_in', 'scep', 'est'] })
  @IsString()
  @MaxLength(32)
  kind!: string;

  @ApiPropertyOptional({ description: 'scep, est: https URL (SCEP endpoint; EST server base)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ description: 'est: optional CA label (one path segment)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(64)
  label?: string;

  @ApiPropertyOptional({ enum: ['basic', 'client_certificate'], description: 'est' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(32)
  auth_mode?: string;

  @ApiPropertyOptional({ description: 'est, auth_mode basic: user name' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(256)
  username?: string;

  @ApiPropertyOptional({ description: 'est, auth_mode basic: password (secret, write-only)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional({
    description: 'est: PEM trust anchor(s) of the server; default system roots',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(PEM_MAX)
  trust_anchor_pem?: string;

  @ApiPropertyOptional({ description: 'est, auth_mode client_certificate: PEM certificate' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(PEM_MAX)
  client_certificate_pem?: string;

  @ApiPropertyOptional({
    description: 'est, auth_mode client_certificate: PEM private key (secret, write-only)',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(PEM_MAX)
  client_key_pem?: string;

  @ApiPropertyOptional({ description: 'scep: SHA-256 of the CA certificate (hex, colons allowed)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(128)
  ca_fingerprint?: string;

  @ApiPropertyOptional({ description: 'scep: challenge password (secret, write-only)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(1024)
  challenge_password?: string;
}
