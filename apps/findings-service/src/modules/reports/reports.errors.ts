import { FindingsError } from '../../app/errors/findings-error';

export type ReportsErrorCode =
  | 'report_not_found'
  | 'report_file_missing'
  | 'report_extension_refused'
  | 'report_archive_refused'
  | 'report_too_large'
  | 'multipart_malformed'
  | 'multipart_boundary_missing'
  | 'upload_too_many_files'
  | 'upload_too_many_parts'
  | 'invalid_filename'
  | 'validation_failed';

export class ReportsError extends FindingsError<ReportsErrorCode> {
  constructor(code: ReportsErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
