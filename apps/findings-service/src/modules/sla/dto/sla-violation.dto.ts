import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { QueryInt, OptionalNotNull } from '@platform/http';
import { IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { SLA_RESOLUTIONS, SLA_VIOLATION_KINDS } from '../sla-violation.entity';
import { SLA_VIOLATION_STATES, type SlaViolationState } from '../sla-violation-view';
import type { SlaViolationView } from '../sla-violation-view';
import type { SlaViolationPage } from '../sla-violations.service';
import { ScopeFiltersDto } from '../../../app/http/comma-list-filters';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export class SlaActorDto {
  @ApiProperty({ enum: ['user', 'service_account', 'system'] }) type!: string;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'e-mail, account name or task' })
  label!: string | null;
}

/** A deadline violation. */
export class SlaViolationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) finding_id!: string;
  @ApiProperty({ nullable: true, type: String, description: 'null when the finding was deleted' })
  finding_title!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'current status of the finding' })
  finding_status!: string | null;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ nullable: true, type: String }) project_name!: string | null;
  @ApiProperty({ format: 'uuid' }) product_id!: string;
  @ApiProperty({ nullable: true, type: String }) product_name!: string | null;
  @ApiProperty({ enum: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] }) severity!: string;
  @ApiProperty({ enum: SLA_VIOLATION_KINDS }) kind!: string;
  @ApiProperty({ enum: ['open', 'resolved'] }) state!: 'open' | 'resolved';
  @ApiProperty({ format: 'date-time', description: 'the deadline when the violation opened' })
  due_at!: string;
  @ApiProperty({ format: 'date-time' }) opened_at!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'when a notification job carrying it was queued',
  })
  notified_at!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) resolved_at!: string | null;
  @ApiProperty({ nullable: true, enum: SLA_RESOLUTIONS, type: String }) resolution!: string | null;
  @ApiProperty({ nullable: true, type: SlaActorDto }) resolved_by!: SlaActorDto | null;
  @ApiProperty({ nullable: true, type: String }) comment!: string | null;

  static from(v: SlaViolationView): SlaViolationDto {
    return {
      id: v.id,
      finding_id: v.findingId,
      finding_title: v.findingTitle,
      finding_status: v.findingStatus,
      project_id: v.projectId,
      project_name: v.projectName,
      product_id: v.productId,
      product_name: v.productName,
      severity: v.severity,
      kind: v.kind,
      state: v.resolvedAt ? 'resolved' : 'open',
      due_at: v.dueAt.toISOString(),
      opened_at: v.openedAt.toISOString(),
      notified_at: iso(v.notifiedAt),
      resolved_at: iso(v.resolvedAt),
      resolution: v.resolution,
      resolved_by: v.resolvedBy,
      comment: v.comment,
    };
  }
}

export class SlaViolationPageDto {
  @ApiProperty({ type: [SlaViolationDto] }) items!: SlaViolationDto[];
  @ApiProperty({ nullable: true, type: String }) next_cursor!: string | null;

  static from(page: SlaViolationPage): SlaViolationPageDto {
    return { items: page.items.map((v) => SlaViolationDto.from(v)), next_cursor: page.nextCursor };
  }
}

/** GET /sla/violations: filters (comma lists) and keyset paging. */
export class ListSlaViolationsQueryDto extends ScopeFiltersDto {
  @ApiPropertyOptional({ enum: SLA_VIOLATION_STATES, default: 'open' })
  @IsOptional()
  @IsIn(SLA_VIOLATION_STATES)
  state?: SlaViolationState;

  @ApiPropertyOptional({ description: `Comma list of: ${SLA_VIOLATION_KINDS.join(', ')}` })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  kind?: string;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page (same filters)' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;

  @QueryInt({ min: 1, max: 500, default: 50 })
  limit?: number;
}

/** POST /sla/violations/{id}/resolve */
export class ResolveSlaViolationDto {
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'Why the violation is closed by hand (kept with it and in the action log)',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @MaxLength(2000)
  comment?: string | null;
}
