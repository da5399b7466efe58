import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsString, MaxLength, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import type { IdentityDirectoryView } from '../identity-directory.view';

const PEM_MAX = 64 * 1024;

/**
 * `PUT /api/v1/settings/identity-directory`: the whole setting. `bind_password` is write-only;
 * left out, the stored one is kept as long as `url` and `bind_dn` stay the same.
 */
export class PutIdentityDirectoryDto {
  @ApiProperty() @IsBoolean() enabled!: boolean;

  @ApiProperty({ description: 'ldap:// or ldaps:// URL: scheme, host, optional port; no path' })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiProperty({ description: 'DN of the account the service binds with' })
  @IsString()
  @MaxLength(1024)
  bind_dn!: string;

  @ApiPropertyOptional({ description: 'write-only; never returned (see has_bind_password)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(1024)
  bind_password?: string;

  @ApiProperty({ description: 'subtree searched for the UPN' })
  @IsString()
  @MaxLength(1024)
  base_dn!: string;

  @ApiPropertyOptional({ default: 'userPrincipalName' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(64)
  upn_attribute?: string;

  @ApiPropertyOptional({ default: 'objectSid', description: 'binary objectSid or a string SID' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(64)
  sid_attribute?: string;

  @ApiPropertyOptional({ default: 5000, minimum: 500, maximum: 30000 })
  @OptionalNotNull()
  @IsInt()
  timeout_ms?: number;

  @ApiPropertyOptional({
    nullable: true,
    description: 'ldaps only: PEM CA certificate(s) of the directory; default system roots',
  })
  @ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(PEM_MAX)
  ca_pem?: string | null;
}

export class IdentityDirectoryDto {
  @ApiProperty({ description: 'false until a setting is stored' }) configured!: boolean;
  @ApiProperty() enabled!: boolean;
  @ApiProperty() url!: string;
  @ApiProperty() bind_dn!: string;
  @ApiProperty({ description: 'a bind password is stored (it is never returned)' })
  has_bind_password!: boolean;
  @ApiProperty() base_dn!: string;
  @ApiProperty() upn_attribute!: string;
  @ApiProperty() sid_attribute!: string;
  @ApiProperty() timeout_ms!: number;
  @ApiProperty({ type: String, nullable: true }) ca_pem!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) updated_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) updated_by!: string | null;

  static from(view: IdentityDirectoryView): IdentityDirectoryDto {
    return {
      configured: view.configured,
      enabled: view.enabled,
      url: view.url,
      bind_dn: view.bindDn,
      has_bind_password: view.hasBindPassword,
      base_dn: view.baseDn,
      upn_attribute: view.upnAttribute,
      sid_attribute: view.sidAttribute,
      timeout_ms: view.timeoutMs,
      ca_pem: view.caPem,
      updated_at: view.updatedAt?.toISOString() ?? null,
      updated_by: view.updatedBy,
    };
  }
}

export class DirectoryTestStepDto {
  @ApiProperty({ enum: ['egress', 'connect', 'bind', 'search'] }) step!: string;
  @ApiProperty() ok!: boolean;
  @ApiProperty({ description: 'what happened (no secret, no directory error text)' })
  detail!: string;
}

export class DirectoryTestDto {
  @ApiProperty() ok!: boolean;
  @ApiProperty({ type: [DirectoryTestStepDto] }) steps!: DirectoryTestStepDto[];
}
