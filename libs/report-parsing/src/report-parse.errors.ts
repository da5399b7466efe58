import { DomainError } from '@platform/errors';

/**
 * Stable codes of report parsing failures (the report's `failure_code`). The message is for
 * the server log; the API shows the localized catalog text (common/errors/report-messages.ts)
 * with `details`, which hold only numbers and paths the parser built, never report text.
 */
export type ReportParseErrorCode =
  | 'report_malformed'
  | 'report_nesting_too_deep'
  | 'report_unsupported'
  | 'report_version_unsupported'
  | 'sarif_version_unsupported'
  | 'report_structure_invalid'
  | 'report_encoding_unsupported'
  | 'report_archive_refused'
  | 'report_format_unknown';

/** Raised while reading or normalizing an uploaded report. */
export class ReportParseError extends DomainError {
  constructor(
    override readonly code: ReportParseErrorCode,
    message: string,
    details?: Record<string, string | number>,
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

/**
 * A container the reader walks (or a member it reads) has the wrong JSON type. `path` is
 * built from SARIF / SonarQube member names and indexes, e.g. `runs[0].results`.
 */
export function structureInvalid(path: string, expected: string): ReportParseError {
  return new ReportParseError('report_structure_invalid', `\`${path}\` is not ${expected}`, {
    path,
  });
}
