import { FindingsError } from '../../app/errors/findings-error';

export type FindingSourcesErrorCode = 'finding_source_not_found' | 'finding_source_poll_failed';

/** Errors of finding sources (sync-now). */
export class FindingSourcesError extends FindingsError<FindingSourcesErrorCode> {
  constructor(code: FindingSourcesErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
