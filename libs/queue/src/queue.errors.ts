import { UnrecoverableError } from 'bullmq';
import { DomainError } from '@platform/errors';

/** A job could not be enqueued because Redis is unreachable; map `queue_unavailable` to 503. */
export class QueueUnavailableError extends DomainError {
  constructor(queue: string, job: string, reason: string, cause?: unknown) {
    const message = `job queue unavailable: could not add "${job}" to "${queue}" (${reason})`;
    super('queue_unavailable', message, { queue, job });
    this.cause = cause;
  }
}

/**
 * A consumed job's payload does not satisfy its contract. Retrying cannot fix it, so it is an
 * `UnrecoverableError`: BullMQ fails the job at once instead of using up its attempts.
 */
export class InvalidJobPayloadError extends UnrecoverableError {
  readonly code = 'invalid_job_payload';

  constructor(
    readonly job: string,
    reason: string,
  ) {
    super(`invalid payload for job "${job}": ${reason}`);
    this.name = 'InvalidJobPayloadError';
  }
}
