import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import type { ServiceAccountEntity } from '../service-account.entity';

export class CreateServiceAccountDto {
  @ApiProperty({ example: 'mdm-approver' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 3650,
    default: 0,
    description: '0 or empty: never expires',
  })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(3650)
  expires_in_days?: number;

  @ApiPropertyOptional({ enum: PURPOSES, isArray: true, default: ['wifi'] })
  @OptionalNotNull()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(PURPOSES, { each: true })
  allowed_purposes?: Purpose[];
}

export class SetAllowedPurposesDto {
  @ApiProperty({ enum: PURPOSES, isArray: true })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(PURPOSES, { each: true })
  allowed_purposes!: Purpose[];
}

export class SetServiceAccountEnabledDto {
  @ApiProperty()
  @IsBoolean()
  enabled!: boolean;
}

export class ServiceAccountDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'first characters of the token' }) token_prefix!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: ['cert-auto-approver'] }) role!: 'cert-auto-approver';
  @ApiProperty() expires_in_days!: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expires_at!: string | null;
  @ApiProperty({ enum: PURPOSES, isArray: true }) allowed_purposes!: Purpose[];
  @ApiProperty() created_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_used_at!: string | null;

  static from(a: ServiceAccountEntity): ServiceAccountDto {
    return {
      id: a.id,
      name: a.name,
      token_prefix: a.tokenPrefix,
      enabled: a.enabled,
      role: 'cert-auto-approver',
      expires_in_days: a.expiresInDays,
      expires_at: a.expiresAt?.toISOString() ?? null,
      allowed_purposes: a.allowedPurposes,
      created_by: a.createdBy,
      created_at: a.createdAt.toISOString(),
      last_used_at: a.lastUsedAt?.toISOString() ?? null,
    };
  }
}

export class CreatedServiceAccountDto extends ServiceAccountDto {
  @ApiProperty({ description: 'the `wca_*` token; shown only in this answer' }) token!: string;
}

export class ServiceAccountListDto {
  @ApiProperty({ type: [ServiceAccountDto] }) items!: ServiceAccountDto[];
}
