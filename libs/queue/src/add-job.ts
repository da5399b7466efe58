import type { JobsOptions, Queue } from 'bullmq';
import type { JobContract } from './job-contract';
import { withJobTrace } from './job-trace';
import { QueueUnavailableError } from './queue.errors';
import { isRedisUnavailableError } from './redis-unavailable';

export interface AddJobOptions extends JobsOptions {
  /** How long to wait for Redis before giving up; default 1500 ms. */
  timeoutMs?: number;
}

/** The part of a BullMQ `Queue` that adding a job needs. */
export type JobQueue = Pick<Queue, 'name' | 'add' | 'waitUntilReady'>;

class Timeout extends Error {}

/** Time left for the add itself even when connecting used up most of the budget. */
const minimumAddMs = 250;

async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), Math.max(ms, 0));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Validates `data` against the contract and adds the job, failing fast with
 * `QueueUnavailableError` when Redis is unreachable. The add is only attempted once the
 * queue's connection is ready, so a job is never sent after the caller was told it failed
 * (with a `producer` connection, whose commands fail at once while disconnected). An add
 * that times out in flight may still land: give jobs a deterministic `jobId` when a client
 * retry must not enqueue twice. Errors that are not about Redis availability (bad options)
 * are rethrown as they are. The active trace context travels in the data (`JOB_TRACE_FIELD`),
 * so the consumer's spans join the producer's trace. Returns the job id.
 */
export async function addJob<T>(
  queue: JobQueue,
  contract: JobContract<T>,
  data: T,
  options: AddJobOptions = {},
): Promise<string> {
  const { timeoutMs = 1_500, ...jobOptions } = options;
  const payload = withJobTrace(contract.parse(data));
  const deadline = Date.now() + timeoutMs;
  const unavailable = (reason: string, cause?: unknown) =>
    new QueueUnavailableError(queue.name, contract.name, reason, cause);
  try {
    await within(queue.waitUntilReady(), timeoutMs);
  } catch (error) {
    throw unavailable(`not connected to Redis within ${timeoutMs} ms`, error);
  }
  try {
    const remaining = Math.max(deadline - Date.now(), minimumAddMs);
    const job = await within(queue.add(contract.name, payload, jobOptions), remaining);
    if (job.id === undefined) throw new Error(`queue "${queue.name}" returned no job id`);
    return job.id;
  } catch (error) {
    if (error instanceof Timeout) throw unavailable(`no answer from Redis within ${timeoutMs} ms`);
    if (isRedisUnavailableError(error)) throw unavailable((error as Error).message, error);
    throw error;
  }
}
