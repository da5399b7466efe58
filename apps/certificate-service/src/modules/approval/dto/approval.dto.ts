import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, IsUUID, MaxLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import type { ApprovalRow, ApprovalRowStatus } from '../approval.types';
import type { ConflictKind, SerialConflict } from '../conflicts.service';
import type { RejectionRow } from '../rejection.service';

/** Requests per call; larger approvals go in several batches. */
export const MAX_REQUESTS_PER_CALL = 5000;

export class RequestIdsDto {
  @ApiProperty({ type: [String], format: 'uuid', maxItems: MAX_REQUESTS_PER_CALL })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_REQUESTS_PER_CALL)
  @IsUUID('all', { each: true })
  request_ids!: string[];
}

export class RejectDto extends RequestIdsDto {
  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

export class ApprovalRowDto {
  @ApiProperty({ format: 'uuid' }) request_id!: string;
  @ApiProperty({ enum: ['issued', 'ca_pending', 'error'] }) status!: ApprovalRowStatus;
  @ApiPropertyOptional({ description: 'certificate serial (hex) when issued' }) serial?: string;
  @ApiPropertyOptional({
    description:
      'error code: request_not_found, request_not_pending, purpose_not_allowed, corp_ownership_denied, device_blocked, license_limit, license_tamper, license_purpose_limit, csr_*, ...',
  })
  error?: string;

  static from(r: ApprovalRow): ApprovalRowDto {
    return {
      request_id: r.requestId,
      status: r.status,
      ...(r.serial === undefined ? {} : { serial: r.serial }),
      ...(r.error === undefined ? {} : { error: r.error }),
    };
  }
}

export class ApprovalResultDto {
  @ApiProperty({ type: [ApprovalRowDto] }) results!: ApprovalRowDto[];
}

export class RejectionRowDto {
  @ApiProperty({ format: 'uuid' }) request_id!: string;
  @ApiProperty({ enum: ['rejected', 'error'] }) status!: 'rejected' | 'error';
  @ApiPropertyOptional() error?: string;

  static from(r: RejectionRow): RejectionRowDto {
    return { request_id: r.requestId, status: r.status, ...(r.error ? { error: r.error } : {}) };
  }
}

export class RejectionResultDto {
  @ApiProperty({ type: [RejectionRowDto] }) results!: RejectionRowDto[];
}

export class SerialConflictDto {
  @ApiProperty() serial!: string;
  @ApiProperty({ enum: PURPOSES }) purpose!: Purpose;
  @ApiProperty({ nullable: true, type: String }) user_identity!: string | null;
  @ApiProperty({ enum: ['multiple_pending', 'active_certificate'], isArray: true })
  kinds!: ConflictKind[];
  @ApiProperty({ type: [String] }) pending_request_ids!: string[];
  @ApiProperty({ type: [String] }) active_certificate_serials!: string[];

  static from(c: SerialConflict): SerialConflictDto {
    return {
      serial: c.serial,
      purpose: c.purpose,
      user_identity: c.userIdentity,
      kinds: c.kinds,
      pending_request_ids: c.pendingRequestIds,
      active_certificate_serials: c.activeCertificateSerials,
    };
  }
}

export class ConflictsResultDto {
  @ApiProperty({ type: [SerialConflictDto] }) conflicts!: SerialConflictDto[];
}
