import { context, trace } from '@opentelemetry/api';
import { ConfigError, EnvReader } from '@platform/config';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import {
  activeTraceCarrier,
  readTracingSettings,
  traceLogFields,
  Tracing,
  tracesUrl,
} from './index';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

function settings(env: Record<string, string>) {
  const r = new EnvReader(env);
  const s = readTracingSettings(r);
  r.done();
  return s;
}

function tracing(samplerRatio = 1) {
  const exporter = new InMemorySpanExporter();
  const t = Tracing.start({
    serviceName: 'svc',
    serviceVersion: '1.0.0',
    component: 'backend',
    settings: { samplerRatio },
    exporter,
  });
  return { t, exporter };
}

describe('readTracingSettings', () => {
  it('exports nothing by default and keeps every trace started here', () => {
    expect(settings({})).toEqual({ endpoint: undefined, samplerRatio: 1 });
  });

  it('takes http:// (plain) and https:// (TLS) endpoints; spans go to <endpoint>/v1/traces', () => {
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).endpoint).toBe(
      'http://collector:4318',
    );
    expect(tracesUrl('https://otel.example.test/base/')).toBe(
      'https://otel.example.test/base/v1/traces',
    );
  });

  it.each(['collector:4318', 'localhost:4318', '127.0.0.1:4318', 'grpc://collector:4317', '//x'])(
    'refuses the endpoint %s: an address without http:// or https:// stops the start',
    (endpoint) => {
      expect(() => settings({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toThrow(ConfigError);
      expect(() => settings({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toThrow(
        /OTEL_EXPORTER_OTLP_ENDPOINT must start with http:\/\/ \(no TLS\) or https:\/\/ \(TLS\)/,
      );
    },
  );

  it('takes OTEL_TRACES_SAMPLER_ARG as a share between 0 and 1', () => {
    expect(settings({ OTEL_TRACES_SAMPLER_ARG: '0.25' }).samplerRatio).toBe(0.25);
    expect(() => settings({ OTEL_TRACES_SAMPLER_ARG: '1.5' })).toThrow(/between 0 and 1/);
    expect(() => settings({ OTEL_TRACES_SAMPLER_ARG: 'half' })).toThrow(/must be a number/);
  });
});

describe('Tracing', () => {
  it('continues an incoming traceparent, and carries it with the request id into a job', async () => {
    const { t, exporter } = tracing();
    const server = t.startServerSpan(
      { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: 'vendor=1' },
      'req-1',
      'POST /things',
      () => ({}),
    );
    const carrier = context.with(server.context, () => activeTraceCarrier());
    server.span.end();
    const serverId = server.span.spanContext().spanId;
    expect(carrier).toMatchObject({
      traceparent: `00-${TRACE_ID}-${serverId}-01`,
      tracestate: 'vendor=1',
      'x-request-id': 'req-1',
    });
    await t.runJob('job process', carrier, {}, async () => {
      expect(traceLogFields()).toEqual({
        trace_id: TRACE_ID,
        span_id: trace.getActiveSpan()?.spanContext().spanId,
      });
    });
    await t.flush();
    const [s, job] = exporter.getFinishedSpans();
    expect(s.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(job.spanContext().traceId).toBe(TRACE_ID);
    expect(job.parentSpanContext?.spanId).toBe(serverId);
    expect(job.attributes['request.id']).toBe('req-1');
    await t.shutdown();
  });

  it('continues B3, single header and multi header', () => {
    const { t } = tracing();
    const single = t.startServerSpan(
      { b3: `${TRACE_ID}-${PARENT_ID}-1` },
      'r',
      'GET /',
      () => ({}),
    );
    expect(single.span.spanContext().traceId).toBe(TRACE_ID);
    const multi = t.startServerSpan(
      { 'x-b3-traceid': TRACE_ID, 'x-b3-spanid': PARENT_ID, 'x-b3-sampled': '1' },
      'r',
      'GET /',
      () => ({}),
    );
    expect(multi.span.spanContext().traceId).toBe(TRACE_ID);
  });

  it('samples the share of traces started here; a continued trace follows its parent', async () => {
    const { t, exporter } = tracing(0);
    t.startServerSpan({}, 'a', 'GET /a', () => ({})).span.end();
    t.startServerSpan(
      { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
      'b',
      'GET /b',
      () => ({}),
    ).span.end();
    await t.flush();
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET /b']);
    await t.shutdown();
  });

  it('marks a failed job span as an error with the error class only', async () => {
    const { t, exporter } = tracing();
    await expect(
      t.runJob('job', {}, {}, () => Promise.reject(new TypeError('secret text'))),
    ).rejects.toThrow(TypeError);
    await t.flush();
    expect(exporter.getFinishedSpans()[0].status).toEqual({ code: 2, message: 'TypeError' });
  });

  it('without an exporter: a non-recording server span with the ids and flags the SDK would give', () => {
    const quiet = (samplerRatio: number) =>
      Tracing.start({
        serviceName: 'svc',
        serviceVersion: '1.0.0',
        component: 'backend',
        settings: { samplerRatio },
      });
    const never = () => {
      throw new Error('attributes read without an exporter');
    };
    const t = quiet(0);
    expect(t.exporting).toBe(false);
    const continued = t.startServerSpan(
      { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: 'vendor=1' },
      'req-2',
      'GET /things',
      never,
    );
    expect(continued.span.isRecording()).toBe(false);
    const ids = continued.span.spanContext();
    expect(ids).toMatchObject({ traceId: TRACE_ID, traceFlags: 1 });
    expect(ids.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(ids.spanId).not.toBe(PARENT_ID);
    expect(context.with(continued.context, () => activeTraceCarrier())).toMatchObject({
      traceparent: `00-${TRACE_ID}-${ids.spanId}-01`,
      tracestate: 'vendor=1',
      'x-request-id': 'req-2',
    });
    expect(context.with(continued.context, () => traceLogFields())).toEqual({
      trace_id: TRACE_ID,
      span_id: ids.spanId,
    });
    // an unsampled parent stays unsampled; a new trace follows the ratio (0 here, 1 below)
    const unsampled = t.startServerSpan(
      { traceparent: `00-${TRACE_ID}-${PARENT_ID}-00` },
      'r',
      'GET /',
      never,
    );
    expect(unsampled.span.spanContext().traceFlags).toBe(0);
    const dropped = t.startServerSpan({}, 'r', 'GET /', never).span.spanContext();
    expect(dropped.traceFlags).toBe(0);
    expect(trace.isSpanContextValid(dropped)).toBe(true);
    const kept = quiet(1).startServerSpan({}, 'r', 'GET /', never).span.spanContext();
    expect(kept.traceFlags).toBe(1);
    expect(kept.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(kept.traceId).not.toBe(dropped.traceId);
  });

  it('puts no ids on lines outside a span', () => {
    tracing();
    expect(traceLogFields()).toEqual({});
  });
});
