import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import { PURPOSE_REQUEST_STATUSES, type PurposeRequestStatus } from '../purpose-request.entity';
import type { PurposeRequestRow } from '../purpose-requests.repository';
import type { OverrideCost } from '../purpose-overrides.service';
import { PagingQueryDto } from '../../../app/http/paging.dto';

export class PurposeRequestQueryDto extends PagingQueryDto {
  @ApiPropertyOptional({ enum: PURPOSE_REQUEST_STATUSES, default: 'pending' })
  @IsOptional()
  @IsIn(PURPOSE_REQUEST_STATUSES)
  status?: PurposeRequestStatus;
}

export class PurposeDecisionDto {
  @ApiProperty({ enum: ['approve', 'deny'], description: 'approve assigns the purpose' })
  @IsIn(['approve', 'deny'])
  decision!: 'approve' | 'deny';
}

export class PurposeRequestDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() serial!: string;
  @ApiProperty({ enum: PURPOSES }) purpose!: Purpose;
  @ApiProperty({ enum: PURPOSE_REQUEST_STATUSES }) status!: PurposeRequestStatus;
  @ApiProperty({ nullable: true, type: String }) note!: string | null;
  @ApiProperty({ format: 'date-time' }) requested_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) decided_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) decided_by!: string | null;

  static from(row: PurposeRequestRow): PurposeRequestDto {
    const r = row.request;
    return {
      id: r.id,
      serial: row.serial,
      purpose: r.purpose,
      status: r.status,
      note: r.note,
      requested_at: r.createdAt.toISOString(),
      decided_at: r.decidedAt?.toISOString() ?? null,
      decided_by: r.decidedBy,
    };
  }
}

export class PurposeRequestPageDto {
  @ApiProperty({ type: [PurposeRequestDto] }) items!: PurposeRequestDto[];
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total!: number;
}

export class OverrideCostDto implements OverrideCost {
  @ApiProperty({ enum: PURPOSES }) purpose!: Purpose;
  @ApiProperty({ description: 'devices whose override a reset removes' }) devices!: number;
  @ApiProperty() allow!: number;
  @ApiProperty() deny!: number;
}

export class OverrideResetDto {
  @ApiProperty({ enum: PURPOSES }) purpose!: Purpose;
  @ApiProperty({ description: 'overrides removed (those devices now inherit)' }) reset!: number;
}
