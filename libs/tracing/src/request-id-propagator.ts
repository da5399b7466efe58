import {
  type Context,
  createContextKey,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
} from '@opentelemetry/api';

const REQUEST_ID = createContextKey('platform.request_id');

/** The header (and job-carrier key) of the request id. */
export const REQUEST_ID_HEADER = 'x-request-id';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function withRequestId(context: Context, requestId: string): Context {
  return SAFE_REQUEST_ID.test(requestId) ? context.setValue(REQUEST_ID, requestId) : context;
}

export function requestIdOf(context: Context): string | undefined {
  const value = context.getValue(REQUEST_ID);
  return typeof value === 'string' ? value : undefined;
}

/**
 * Carries `x-request-id` beside the trace headers: into a job's carrier when the job is added
 * within a request, and out of it when the job is consumed (so the worker's spans and lines name
 * the request that caused them). Only sane tokens are taken.
 */
export class RequestIdPropagator implements TextMapPropagator {
  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    const requestId = requestIdOf(context);
    if (requestId !== undefined) setter.set(carrier, REQUEST_ID_HEADER, requestId);
  }

  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    const raw = getter.get(carrier, REQUEST_ID_HEADER);
    const value = Array.isArray(raw) ? raw[0] : raw;
    return typeof value === 'string' ? withRequestId(context, value) : context;
  }

  fields(): string[] {
    return [REQUEST_ID_HEADER];
  }
}
