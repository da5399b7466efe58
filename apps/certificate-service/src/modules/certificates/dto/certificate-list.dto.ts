import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import { PagingQueryDto } from '../../../app/http/paging.dto';
import { CERTIFICATE_STATUSES, type CertificateStatus } from '../certificate-status';
import type { CertificateFilter, CertificateListRow } from '../certificate-list.repository';
import { CertificateDto } from './certificate.dto';

export class CertificateQueryDto extends PagingQueryDto {
  @ApiPropertyOptional({ description: 'start of the certificate serial (hex, case-insensitive)' })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-fA-F:]{1,60}$/, { message: 'serial must be hexadecimal' })
  serial?: string;

  @ApiPropertyOptional({ description: 'exact serial of the device' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  device?: string;

  @ApiPropertyOptional({ description: 'case-insensitive part of the subject or user identity' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  subject?: string;

  @ApiPropertyOptional({ enum: PURPOSES })
  @IsOptional()
  @IsIn(PURPOSES)
  purpose?: Purpose;

  @ApiPropertyOptional({ enum: CERTIFICATE_STATUSES })
  @IsOptional()
  @IsIn(CERTIFICATE_STATUSES)
  status?: CertificateStatus;
}

export function certificateFilterOf(query: CertificateQueryDto): CertificateFilter {
  return {
    serialPrefix: query.serial?.replace(/:/g, '').toLowerCase(),
    device: query.device,
    subject: query.subject,
    purpose: query.purpose,
    status: query.status,
  };
}

/** A certificate as listed: the certificate fields plus its device and supersession. */
export class CertificateListItemDto extends CertificateDto {
  @ApiProperty() device_serial!: string;
  @ApiProperty({ nullable: true, type: String }) user_identity!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  superseded_at!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'serial of the renewal' })
  superseded_by!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static fromRow(row: CertificateListRow): CertificateListItemDto {
    return {
      ...CertificateDto.from(row),
      device_serial: row.deviceSerial,
      user_identity: row.userIdentity,
      superseded_at: row.supersededAt?.toISOString() ?? null,
      superseded_by: row.supersededBy,
      created_at: row.createdAt.toISOString(),
    };
  }
}

export class CertificatePageDto {
  @ApiProperty({ type: [CertificateListItemDto], description: 'newest first' })
  items!: CertificateListItemDto[];
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total!: number;
}
