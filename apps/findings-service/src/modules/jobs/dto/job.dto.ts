import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { QueryInt } from '@platform/http';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { JOB_STATES, JobStateName, JobView } from '../job-view';

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

  static from(v: JobView): JobDto {
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
