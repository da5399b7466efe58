import { FindingsError } from '../../app/errors/findings-error';

export type JobsErrorCode = 'job_not_found' | 'job_not_retryable' | 'job_not_cancellable';

export class JobsError extends FindingsError<JobsErrorCode> {
  constructor(code: JobsErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
