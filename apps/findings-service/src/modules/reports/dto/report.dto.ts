import { ApiProperty } from '@nestjs/swagger';
import type { Locale } from '../../../app/errors/error-messages';
import { IGNORED_VALUE_CODES, RESULT_WARNING_CODES } from '@platform/report-parsing';
import {
  IGNORED_VALUE_MESSAGES,
  REPORT_FAILURE_MESSAGES,
  renderReportMessage,
  RESULT_WARNING_MESSAGES,
} from '../report-messages';
import {
  isReportFailureCode,
  REPORT_FAILURE_CODES,
  REPORT_FORMATS,
  REPORT_STATUSES,
} from '../report-status';
import { ReportEntity } from '../report.entity';

export class ReportAcceptedDto {
  @ApiProperty({ format: 'uuid' }) report_id!: string;
  @ApiProperty({ enum: ['pending'] }) status!: 'pending';
}

export class ReportCountsDto {
  @ApiProperty({ description: 'Findings created by this report' }) new!: number;
  @ApiProperty({ description: 'Existing findings seen again (last seen, sources updated)' })
  updated!: number;
  @ApiProperty({ description: 'Fixed findings seen again, now renewed' }) renewed!: number;
  @ApiProperty({ description: 'Results read from the report (duplicates included)' })
  results!: number;
  @ApiProperty({
    description:
      'Results that were the same finding as another result of the report: results - (new + updated + renewed)',
  })
  duplicates!: number;
}

/** The report's counts, with the results that repeated a finding of the same report. */
export function reportCounts(r: ReportEntity): ReportCountsDto {
  const touched = r.newCount + r.updatedCount + r.renewedCount;
  return {
    new: r.newCount,
    updated: r.updatedCount,
    renewed: r.renewedCount,
    results: r.resultsTotal,
    duplicates: Math.max(0, r.resultsTotal - touched),
  };
}

export class ReportWarningDto {
  @ApiProperty({
    enum: [...RESULT_WARNING_CODES, ...IGNORED_VALUE_CODES],
    description:
      'Why the results were skipped (result_stored false), or which of their values was ignored or read as its equivalent (result_stored true)',
  })
  code!: string;
  @ApiProperty({
    description:
      'Results concerned: skipped ones (not stored, not in counts), or stored ones whose value was ignored (each counted once per code)',
  })
  count!: number;
  @ApiProperty({ description: 'Localized by Accept-Language (en, ru)' }) message!: string;
  @ApiProperty({
    description:
      'false: the results were skipped (not stored); true: they were stored, only the value was ignored',
  })
  result_stored!: boolean;
}

/** Why the report failed, in the locale (null: it did not fail). */
export function reportFailureReason(r: ReportEntity, locale: Locale): string | null {
  if (r.failureCode === null) return null;
  const code = isReportFailureCode(r.failureCode) ? r.failureCode : 'internal_error';
  return renderReportMessage(REPORT_FAILURE_MESSAGES[code][locale], r.failureDetails);
}

/** Skipped results first, then ignored values; each in its catalog's order. */
function warnings(r: ReportEntity, locale: Locale): ReportWarningDto[] {
  const skipped = RESULT_WARNING_CODES.filter((code) => (r.warnings[code] ?? 0) > 0).map(
    (code) => ({
      code,
      count: r.warnings[code] ?? 0,
      message: RESULT_WARNING_MESSAGES[code][locale],
      result_stored: false,
    }),
  );
  const ignored = IGNORED_VALUE_CODES.filter((code) => (r.warnings[code] ?? 0) > 0).map((code) => ({
    code,
    count: r.warnings[code] ?? 0,
    message: IGNORED_VALUE_MESSAGES[code][locale],
    result_stored: true,
  }));
  return [...skipped, ...ignored];
}

export class ReportDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) product_id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ enum: REPORT_STATUSES }) status!: string;
  @ApiProperty({ enum: REPORT_FORMATS, nullable: true, type: String }) format!: string | null;
  @ApiProperty() file_name!: string;
  @ApiProperty() size_bytes!: number;
  @ApiProperty({ nullable: true, type: String }) scanner!: string | null;
  @ApiProperty({ nullable: true, type: String }) scanner_version!: string | null;
  @ApiProperty({ nullable: true, type: String }) engine!: string | null;
  @ApiProperty({ nullable: true, type: String }) engine_version!: string | null;
  @ApiProperty({ nullable: true, type: String }) commit_id!: string | null;
  @ApiProperty() verify_fixes!: boolean;
  @ApiProperty({ type: ReportCountsDto, description: 'Final once status is completed' })
  counts!: ReportCountsDto;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: REPORT_FAILURE_CODES,
    description: 'Stable code of a failure',
  })
  failure_code!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Why the report failed, localized by Accept-Language (en, ru)',
  })
  failure_reason!: string | null;
  @ApiProperty({
    type: [ReportWarningDto],
    description:
      'Per reason: results skipped because they cannot be stored (result_stored false), and stored results whose value was ignored (result_stored true)',
  })
  warnings!: ReportWarningDto[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) started_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'finished_at - created_at' })
  duration_ms!: number | null;

  static from(r: ReportEntity, locale: Locale = 'en'): ReportDto {
    return {
      id: r.id,
      product_id: r.productId,
      project_id: r.projectId,
      status: r.status,
      format: r.format ?? r.requestedFormat,
      file_name: r.fileName,
      size_bytes: r.sizeBytes,
      scanner: r.scanner,
      scanner_version: r.scannerVersion,
      engine: r.engine,
      engine_version: r.engineVersion,
      commit_id: r.commitId,
      verify_fixes: r.verifyFixes,
      counts: reportCounts(r),
      failure_code: r.failureCode,
      failure_reason: reportFailureReason(r, locale),
      warnings: warnings(r, locale),
      created_at: r.createdAt.toISOString(),
      started_at: r.startedAt?.toISOString() ?? null,
      finished_at: r.finishedAt?.toISOString() ?? null,
      duration_ms: r.finishedAt ? r.finishedAt.getTime() - r.createdAt.getTime() : null,
    };
  }
}
