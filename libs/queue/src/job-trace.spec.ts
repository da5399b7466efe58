import { context } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { Tracing } from '@platform/tracing';
import { JOB_TRACE_FIELD, jobTraceCarrier, withJobTrace } from './job-trace';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('job trace carrier', () => {
  it('adds the active trace to job data, and nothing outside a trace', async () => {
    const tracing = Tracing.start({
      serviceName: 'svc',
      serviceVersion: '1',
      component: 'backend',
      settings: { samplerRatio: 1 },
      exporter: new InMemorySpanExporter(),
    });
    expect(withJobTrace({ reportId: 'r' })).toEqual({ reportId: 'r' });
    const server = tracing.startServerSpan(
      { traceparent: TRACEPARENT },
      'req-1',
      'POST /',
      () => ({}),
    );
    const data = context.with(server.context, () => withJobTrace({ reportId: 'r' }));
    expect(data).toEqual({
      reportId: 'r',
      [JOB_TRACE_FIELD]: {
        traceparent: `00-4bf92f3577b34da6a3ce929d0e0e4736-${server.span.spanContext().spanId}-01`,
        b3: `4bf92f3577b34da6a3ce929d0e0e4736-${server.span.spanContext().spanId}-1`,
        'x-request-id': 'req-1',
      },
    });
    expect(jobTraceCarrier(data)).toEqual(data[JOB_TRACE_FIELD as keyof typeof data]);
    server.span.end();
    await tracing.shutdown();
  });

  it('takes only known headers with sane string values from consumed data', () => {
    expect(
      jobTraceCarrier({
        [JOB_TRACE_FIELD]: {
          traceparent: TRACEPARENT,
          cookie: 'session=1',
          tracestate: 42,
          b3: 'x'.repeat(10_000),
        },
      }),
    ).toEqual({ traceparent: TRACEPARENT });
    expect(jobTraceCarrier({ [JOB_TRACE_FIELD]: [TRACEPARENT] })).toEqual({});
    expect(jobTraceCarrier({ [JOB_TRACE_FIELD]: 'traceparent' })).toEqual({});
    expect(jobTraceCarrier(null)).toEqual({});
    expect(jobTraceCarrier({})).toEqual({});
  });
});
