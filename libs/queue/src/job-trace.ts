import { activeTraceCarrier, type Tracing } from '@platform/tracing';
import type { Job } from 'bullmq';

/**
 * Reserved field of every job's data: the trace headers (`traceparent`, `tracestate`, `b3`,
 * `baggage`, `x-request-id`) of the context the job was added in, so the consumer's spans join
 * the producer's trace. Contracts never declare it; `parse` ignores it.
 */
export const JOB_TRACE_FIELD = '_trace';

const CARRIER_KEYS = new Set(['traceparent', 'tracestate', 'b3', 'baggage', 'x-request-id']);
const MAX_VALUE_LENGTH = 8192;

/** The job data with the active trace context added (unchanged outside a trace). */
export function withJobTrace<T>(data: T): T {
  const carrier = activeTraceCarrier();
  if (Object.keys(carrier).length === 0 || typeof data !== 'object' || data === null) return data;
  return { ...data, [JOB_TRACE_FIELD]: carrier };
}

/**
 * The trace carrier of consumed job data: only the known headers with string values of sane
 * length (a job from an older producer, or tampered data, simply starts a new trace).
 */
export function jobTraceCarrier(data: unknown): Record<string, string> {
  if (typeof data !== 'object' || data === null) return {};
  const raw = (data as Record<string, unknown>)[JOB_TRACE_FIELD];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const carrier: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (CARRIER_KEYS.has(key) && typeof value === 'string' && value.length <= MAX_VALUE_LENGTH) {
      carrier[key] = value;
    }
  }
  return carrier;
}

/**
 * A BullMQ processor that runs each job of `queue` in one consumer span continuing the trace
 * its producer put into the job (never a span per item of the job).
 */
export function tracedJobConsumer<T>(
  tracing: Tracing,
  queue: string,
  process: (job: Job) => Promise<T>,
): (job: Job) => Promise<T> {
  return (job) =>
    tracing.runJob(
      `${queue} process`,
      jobTraceCarrier(job.data),
      {
        'messaging.system': 'bullmq',
        'messaging.destination.name': queue,
        'messaging.message.id': job.id ?? '',
        'messaging.operation.type': 'process',
        'job.attempt': job.attemptsMade + 1,
      },
      () => process(job),
    );
}
