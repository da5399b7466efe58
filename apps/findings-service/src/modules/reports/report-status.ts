export const REPORT_STATUSES = ['pending', 'completed', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_FORMATS = ['sarif', 'sonarqube'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Why a report failed: a parser code, a missing file, a cancellation or an internal error. */
export type ReportFailureCode =
  | 'report_malformed'
  | 'report_unsupported'
  | 'report_archive_refused'
  | 'report_format_unknown'
  | 'report_file_missing'
  | 'cancelled'
  | 'internal_error';
