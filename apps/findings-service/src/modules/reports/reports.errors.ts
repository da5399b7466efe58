import { FindingsError } from '../../common/errors/app-error';

export type ReportsErrorCode =
  | 'report_not_found'
  | 'report_file_missing'
  | 'report_extension_refused'
  | 'report_archive_refused'
  | 'report_too_large'
  | 'validation_failed';

export class ReportsError extends FindingsError<ReportsErrorCode> {
  constructor(code: ReportsErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
