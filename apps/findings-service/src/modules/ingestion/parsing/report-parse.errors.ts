import { DomainError } from '@platform/errors';

/** Stable codes of report parsing failures (mapped to report state `failed` / HTTP 400). */
export type ReportParseErrorCode =
  'report_malformed' | 'report_unsupported' | 'report_archive_refused' | 'report_format_unknown';

/** Raised while reading or normalizing an uploaded report. */
export class ReportParseError extends DomainError {
  constructor(
    override readonly code: ReportParseErrorCode,
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(code, message, details);
  }
}

/** Malformed JSON at an absolute byte offset of the report. */
export function malformedAt(offset: number, problem: string): ReportParseError {
  return new ReportParseError('report_malformed', `malformed JSON at byte ${offset}: ${problem}`, {
    offset,
  });
}
