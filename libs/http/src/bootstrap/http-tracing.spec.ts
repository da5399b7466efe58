import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { activeTraceCarrier, Tracing } from '@platform/tracing';
import Fastify, { type FastifyInstance } from 'fastify';
import { installHttpTracing } from './http-tracing';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

let exporter: InMemorySpanExporter;
let tracing: Tracing;
let app: FastifyInstance;
/** What the handler saw: the active span and the carrier a job added there would get. */
let seen: { spanId?: string; carrier: Record<string, string> } | undefined;

beforeAll(async () => {
  exporter = new InMemorySpanExporter();
  tracing = Tracing.start({
    serviceName: 'svc',
    serviceVersion: '1.0.0',
    component: 'backend',
    settings: { samplerRatio: 1 },
    exporter,
  });
  app = Fastify({ genReqId: () => 'req-7' });
  installHttpTracing(app, tracing);
  app.post('/things/:id', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    seen = {
      spanId: trace.getActiveSpan()?.spanContext().spanId,
      carrier: activeTraceCarrier(),
    };
    return { ok: true };
  });
  app.get('/boom', async () => {
    throw new Error('database exploded');
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await tracing.shutdown();
});

beforeEach(() => {
  exporter.reset();
  seen = undefined;
});

async function finished(): Promise<ReadableSpan[]> {
  await tracing.flush();
  return exporter.getFinishedSpans();
}

describe('installHttpTracing', () => {
  it('runs the handler inside a server span that continues traceparent, named by route', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/things/42?token=secret',
      headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
      payload: { a: 1 },
    });
    expect(res.statusCode).toBe(200);
    const [span] = await finished();
    expect(span.name).toBe('POST /things/:id');
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/things/:id',
      'url.path': '/things/42',
      'http.response.status_code': 200,
      'request.id': 'req-7',
    });
    expect(span.status.code).toBe(0);
    // The handler ran in the span's context (after the body was parsed), so work it hands on
    // (a queued job) carries the trace and the request id.
    expect(seen?.spanId).toBe(span.spanContext().spanId);
    expect(seen?.carrier).toMatchObject({
      traceparent: `00-${TRACE_ID}-${span.spanContext().spanId}-01`,
      'x-request-id': 'req-7',
    });
  });

  it('starts a new trace without incoming headers', async () => {
    await app.inject({ method: 'POST', url: '/things/1', payload: {} });
    const [span] = await finished();
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.spanContext().traceId).not.toBe(TRACE_ID);
  });

  it('marks a 5xx answer as an error', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    const [span] = await finished();
    expect(span.attributes['http.response.status_code']).toBe(500);
    expect(span.status.code).toBe(2); // ERROR
    expect(span.status.message).toBeUndefined();
  });
});
