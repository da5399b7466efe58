import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { QueryInt } from '@platform/http';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import type { Locale } from '../../../app/errors/error-messages';
import { reportCounts, ReportCountsDto, reportFailureReason } from '../../reports/dto/report.dto';
import { REPORT_FAILURE_CODES, REPORT_STATUSES } from '../../reports/report-status';
import { JOB_STATES, JobStateName, JobView } from '../job-view';
import { isRetryable, type JobReport } from '../jobs.service';

export class JobListQueryDto {
  @ApiPropertyOptional({ enum: JOB_STATES })
  @IsOptional()
  @IsIn(JOB_STATES)
  state?: JobStateName;

  @ApiPropertyOptional({ example: 'report-ingestion' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  queue?: string;

  @ApiPropertyOptional({ example: 'ingest-report', description: 'Job name' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  kind?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  report_id?: string;

  @QueryInt({ min: 1, max: 500, default: 50 })
  limit?: number;

  @QueryInt({ min: 0, max: 100_000, default: 0 })
  offset?: number;
}

export class JobDto {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'report-ingestion' }) queue!: string;
  @ApiProperty({ example: 'ingest-report' }) kind!: string;
  @ApiProperty({ enum: JOB_STATES }) state!: JobStateName;
  @ApiProperty({ nullable: true, type: String }) report_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) project_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) product_id!: string | null;
  @ApiProperty() attempts_made!: number;
  @ApiProperty() attempts!: number;
  @ApiProperty({ nullable: true, type: String }) failed_reason!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) processed_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at!: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The report's file name" })
  file_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) project_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) product_name!: string | null;
  @ApiProperty({ nullable: true, type: String, enum: REPORT_STATUSES }) report_status!:
    string | null;
  @ApiProperty({ nullable: true, type: ReportCountsDto, description: "The report's counts" })
  counts!: ReportCountsDto | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'Upload to finish; null while running',
  })
  duration_ms!: number | null;
  @ApiProperty({ nullable: true, type: String, enum: REPORT_FAILURE_CODES })
  failure_code!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Why it failed, localized by Accept-Language (en, ru)',
  })
  failure_reason!: string | null;
  @ApiProperty({
    description:
      'A failed job whose failure can go away on another attempt (database or storage unavailable, internal error, cancelled); false for a report that can never be read',
  })
  retryable!: boolean;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: { type: 'number' },
    description:
      'Counters a running or finished job reported (a ticket backfill: total, done, linked, created, skipped, failed); null without',
  })
  progress!: Record<string, number> | null;

  static from(v: JobView, job?: JobReport, locale: Locale = 'en'): JobDto {
    const r = job?.report;
    return {
      id: v.id,
      queue: v.queue,
      kind: v.kind,
      state: v.state,
      report_id: v.reportId,
      project_id: v.projectId,
      product_id: v.productId,
      attempts_made: v.attemptsMade,
      attempts: v.attempts,
      failed_reason: v.failedReason,
      created_at: v.createdAt.toISOString(),
      processed_at: v.processedAt?.toISOString() ?? null,
      finished_at: v.finishedAt?.toISOString() ?? null,
      file_name: r?.fileName ?? null,
      project_name: job?.projectName ?? null,
      product_name: job?.productName ?? null,
      report_status: r?.status ?? null,
      counts: r ? reportCounts(r) : null,
      duration_ms: r?.finishedAt ? r.finishedAt.getTime() - r.createdAt.getTime() : null,
      failure_code: r?.failureCode ?? null,
      failure_reason: r ? reportFailureReason(r, locale) : null,
      retryable: isRetryable(v, r),
      progress: v.progress,
    };
  }
}

export class JobCancelDto extends JobDto {
  @ApiProperty({ description: 'Removed from the queue, or flagged for the running handler' })
  cancel_requested!: boolean;
}

export class JobStatsDto {
  @ApiProperty() waiting!: number;
  @ApiProperty() active!: number;
  @ApiProperty() delayed!: number;
  @ApiProperty() completed!: number;
  @ApiProperty() failed!: number;
}
