import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type LogSnapshotsErrorCode =
  | 'device_not_found'
  | 'log_snapshot_not_found'
  | 'log_snapshot_empty'
  | 'log_snapshot_corrupt'
  | 'log_snapshot_too_large'
  | 'log_snapshot_inflated_too_large'
  | 'log_snapshot_not_text'
  | 'log_snapshot_upload_in_progress'
  | 'log_request_not_found';

export class LogSnapshotsError extends CertsvcError<LogSnapshotsErrorCode> {
  constructor(code: LogSnapshotsErrorCode) {
    super(code, certsvcErrorMessage(code));
  }
}
