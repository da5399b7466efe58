import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  SamplingDecision,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Tracer,
} from '@opentelemetry/api';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { B3InjectEncoding, B3Propagator } from '@opentelemetry/propagator-b3';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  RandomIdGenerator,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { IncomingHttpHeaders } from 'node:http';
import { requestIdOf, RequestIdPropagator, withRequestId } from './request-id-propagator';
import { type TracingSettings, tracesUrl } from './tracing-settings';

export interface TracingOptions {
  /** `service.name` of the spans (e.g. `findings-service`). */
  serviceName: string;
  serviceVersion: string;
  /** The process within the service (`backend`, `worker`), a resource attribute. */
  component: string;
  settings: TracingSettings;
  /** Replaces the OTLP/HTTP exporter (tests of the lib itself). */
  exporter?: SpanExporter;
}

let processWideSetUp = false;

/**
 * Context propagation is process-wide (one context manager, one propagator set), the same for
 * every service; the tracer provider is not: each Tracing has its own (an API and a worker
 * built in one test process export as themselves). Propagators, extracting in this order so
 * that W3C wins over B3 when a request carries both: B3 (single `b3` header or `X-B3-*`),
 * W3C trace context (`traceparent`, `tracestate`), W3C baggage, and `x-request-id`.
 */
function setUpProcessWide(): void {
  if (processWideSetUp) return;
  processWideSetUp = true;
  // register() installs the AsyncLocalStorage context manager and the propagators; the global
  // tracer provider it also sets has no span processor (each Tracing uses its own provider).
  new NodeTracerProvider().register({
    propagator: new CompositePropagator({
      propagators: [
        new B3Propagator({ injectEncoding: B3InjectEncoding.SINGLE_HEADER }),
        new W3CTraceContextPropagator(),
        new W3CBaggagePropagator(),
        new RequestIdPropagator(),
      ],
    }),
  });
}

const headerGetter = {
  keys: (carrier: IncomingHttpHeaders) => Object.keys(carrier),
  get: (carrier: IncomingHttpHeaders, key: string) => carrier[key],
};

/** A request's server span and the context the rest of the request runs in. */
export interface ServerSpan {
  span: Span;
  context: Context;
}

/**
 * Traces of one process: spans for HTTP requests and for consumed jobs, exported over OTLP/HTTP
 * (JSON) only when an endpoint is configured. Without one, spans are still started (so ids
 * exist, continue incoming traces and travel into jobs and log lines) but go nowhere. Sampling
 * is parent-based: a trace started here is kept with `samplerRatio`, a continued one as its
 * parent decided. Spans are per request, job or batch, never per finding.
 */
export class Tracing {
  readonly tracer: Tracer;
  readonly exporting: boolean;
  private readonly provider: NodeTracerProvider;
  private readonly sampler: Sampler;
  private readonly ids = new RandomIdGenerator();

  private constructor(options: TracingOptions) {
    setUpProcessWide();
    const { settings } = options;
    const exporter =
      options.exporter ??
      (settings.endpoint
        ? new OTLPTraceExporter({ url: tracesUrl(settings.endpoint) })
        : undefined);
    const spanProcessors: SpanProcessor[] = exporter ? [new BatchSpanProcessor(exporter)] : [];
    this.exporting = exporter !== undefined;
    this.sampler = new ParentBasedSampler({
      root: new TraceIdRatioBasedSampler(settings.samplerRatio),
    });
    this.provider = new NodeTracerProvider({
      resource: resourceFromAttributes({
        'service.name': options.serviceName,
        'service.version': options.serviceVersion,
        component: options.component,
      }),
      sampler: this.sampler,
      spanProcessors,
    });
    this.tracer = this.provider.getTracer(options.serviceName, options.serviceVersion);
  }

  static start(options: TracingOptions): Tracing {
    return new Tracing(options);
  }

  /**
   * The server span of an HTTP request, continuing the trace its headers carry (`traceparent`,
   * B3) with the request id in the context. The caller ends the span. `attributes` are read
   * only when spans are exported: without an exporter the span is a non-recording one with the
   * same ids and sampled flag the SDK would give it (a new span id; the parent's trace id and
   * trace state, or a new trace decided by the same sampler), so the trace still continues
   * into jobs, outgoing calls and log lines, without the cost of a span nobody receives.
   */
  startServerSpan(
    headers: IncomingHttpHeaders,
    requestId: string,
    name: string,
    attributes: () => Attributes,
  ): ServerSpan {
    const parent = withRequestId(
      propagation.extract(ROOT_CONTEXT, headers, headerGetter),
      requestId,
    );
    const span = this.exporting
      ? this.tracer.startSpan(
          name,
          { kind: SpanKind.SERVER, attributes: { ...attributes(), 'request.id': requestId } },
          parent,
        )
      : this.unrecordedSpan(parent, name);
    return { span, context: trace.setSpan(parent, span) };
  }

  private unrecordedSpan(parent: Context, name: string): Span {
    const continued = trace.getSpanContext(parent);
    const valid = continued !== undefined && trace.isSpanContextValid(continued);
    const traceId = valid ? continued.traceId : this.ids.generateTraceId();
    const { decision, traceState } = this.sampler.shouldSample(
      parent,
      traceId,
      name,
      SpanKind.SERVER,
      {},
      [],
    );
    return trace.wrapSpanContext({
      traceId,
      spanId: this.ids.generateSpanId(),
      traceFlags:
        decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE,
      traceState: traceState ?? (valid ? continued.traceState : undefined),
    });
  }

  /**
   * Runs a consumed job in a consumer span that continues the trace its producer put into the
   * job (`carrier`, see `@platform/queue` jobTraceCarrier); a job without one starts a trace.
   */
  async runJob<T>(
    name: string,
    carrier: Record<string, string>,
    attributes: Attributes,
    work: () => Promise<T>,
  ): Promise<T> {
    const parent = propagation.extract(ROOT_CONTEXT, carrier);
    const requestId = requestIdOf(parent);
    const span = this.tracer.startSpan(
      name,
      {
        kind: SpanKind.CONSUMER,
        attributes: { ...attributes, ...(requestId ? { 'request.id': requestId } : {}) },
      },
      parent,
    );
    return context.with(trace.setSpan(parent, span), () => this.finish(span, work));
  }

  /** A child span of the active one (a batch, a periodic task run). */
  async inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
    const span = this.tracer.startSpan(name, { attributes });
    return context.with(trace.setSpan(context.active(), span), () => this.finish(span, work));
  }

  /** Sends the spans still buffered (tests; shutdown does it too). */
  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  async shutdown(): Promise<void> {
    await this.provider.shutdown();
  }

  private async finish<T>(span: Span, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorName(error) });
      throw error;
    } finally {
      span.end();
    }
  }
}

/** A span's status message names the error class only: messages may quote data. */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

/**
 * `trace_id` and `span_id` of the active span, for a log line (pino `mixin`): nothing outside
 * a span. Costs a context look-up per line.
 */
export function traceLogFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return trace.isSpanContextValid(span.spanContext()) ? { trace_id: traceId, span_id: spanId } : {};
}

/**
 * The trace headers of the active context (W3C, B3, baggage, request id), for a carrier that
 * travels with work handed to another process (a queued job). Empty outside a trace or before
 * any Tracing was started in the process.
 */
export function activeTraceCarrier(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}
