import { FindingsError } from '../../app/errors/findings-error';

export type AutoClosureErrorCode =
  'verification_endpoint_missing' | 'verification_endpoint_invalid' | 'reverification_unavailable';

/** Errors of the automatic closure, re-verification requests and verification endpoints. */
export class AutoClosureError extends FindingsError<AutoClosureErrorCode> {
  constructor(code: AutoClosureErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
