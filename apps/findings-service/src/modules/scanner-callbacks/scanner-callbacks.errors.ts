import { FindingsError } from '../../app/errors/findings-error';

export type ScannerCallbacksErrorCode =
  | 'callback_signature_missing'
  | 'callback_signature_invalid'
  | 'callback_timestamp_stale'
  | 'callback_key_unknown'
  | 'callback_key_retired'
  | 'callback_replayed'
  | 'callback_key_not_found'
  | 'callback_key_not_rotatable'
  /** Redis (the shared replay memory) is unreachable. */
  | 'service_unavailable';

/** Errors of scanner callbacks (signature, time, replay) and of their key management. */
export class ScannerCallbacksError extends FindingsError<ScannerCallbacksErrorCode> {
  constructor(code: ScannerCallbacksErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
