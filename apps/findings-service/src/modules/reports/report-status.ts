export const REPORT_STATUSES = ['pending', 'completed', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_FORMATS = ['sarif', 'sonarqube'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * Why a report failed (`failure_code`; the API adds the localized `failure_reason`, see
 * report-messages.ts): the parser's code, a missing file, a report too complex for the parser
 * thread, a cancellation, a transient failure that outlasted every attempt, or an internal
 * error (logged with its `error_id`).
 */
export const REPORT_FAILURE_CODES = [
  'report_malformed',
  'report_nesting_too_deep',
  'report_unsupported',
  'report_version_unsupported',
  'sarif_version_unsupported',
  'report_structure_invalid',
  'report_encoding_unsupported',
  'report_archive_refused',
  'report_format_unknown',
  'report_file_missing',
  'report_too_complex',
  'cancelled',
  'database_unavailable',
  'storage_unavailable',
  'internal_error',
] as const;
export type ReportFailureCode = (typeof REPORT_FAILURE_CODES)[number];

/**
 * Values shown in a failure's message (byte offset, structure path, error id): built by the
 * service, never text taken from the report or a driver.
 */
export type ReportFailureDetails = Record<string, string | number>;

/**
 * Failures another attempt can overcome (the database or storage back, a bug fixed meanwhile,
 * a cancelled run continued); every other failure is the file's and needs a corrected upload.
 */
export const RETRYABLE_FAILURE_CODES: readonly ReportFailureCode[] = [
  'database_unavailable',
  'storage_unavailable',
  'internal_error',
  'cancelled',
];

export function isRetryableFailure(code: string | null): boolean {
  return code !== null && (RETRYABLE_FAILURE_CODES as readonly string[]).includes(code);
}

export function isReportFailureCode(value: string): value is ReportFailureCode {
  return (REPORT_FAILURE_CODES as readonly string[]).includes(value);
}
