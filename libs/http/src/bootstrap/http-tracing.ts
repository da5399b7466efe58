import { context, type Context, type Span, SpanStatusCode } from '@opentelemetry/api';
import { scrubSecretText } from '@platform/logging';
import type { Tracing } from '@platform/tracing';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const TRACE = Symbol('httpTrace');
type Traced = FastifyRequest & { [TRACE]?: { span: Span; context: Context; ended: boolean } };

/**
 * Path without the query string (queries may carry tokens or search text), a secret in it (a
 * webhook's last segment) replaced.
 */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return scrubSecretText(q === -1 ? url : url.slice(0, q));
}

/**
 * A server span per request, continuing `traceparent`/`tracestate` or B3 when the request
 * carries them (the request id is in the context too). The handler runs inside the span's
 * context, entered in a callback-style `preHandler` (after the body is parsed, so the context
 * is not lost with the stream's events): what it queues carries the trace. The span ends when
 * the response is sent (or the client goes away) with the route template and status; 5xx
 * answers mark it as an error.
 */
export function installHttpTracing(fastify: FastifyInstance, tracing: Tracing): void {
  fastify.addHook('onRequest', (request: Traced, _reply, done) => {
    const route = request.routeOptions?.url;
    const server = tracing.startServerSpan(
      request.headers,
      request.id,
      route ? `${request.method} ${route}` : request.method,
      // Read only when spans are exported (the path's secret scrub is a regular expression).
      () => ({
        'http.request.method': request.method,
        'url.path': pathOf(request.url),
        ...(route ? { 'http.route': route } : {}),
      }),
    );
    request[TRACE] = { ...server, ended: false };
    context.with(server.context, done);
  });
  fastify.addHook('preHandler', (request: Traced, _reply, done) => {
    const traced = request[TRACE];
    if (traced) context.with(traced.context, done);
    else done();
  });
  fastify.addHook('onResponse', (request: Traced, reply, done) => {
    end(request, reply.statusCode);
    done();
  });
  fastify.addHook('onRequestAbort', (request: Traced, done) => {
    end(request, undefined);
    done();
  });
}

function end(request: Traced, status: number | undefined): void {
  const traced = request[TRACE];
  if (!traced || traced.ended) return;
  traced.ended = true;
  if (status === undefined) {
    traced.span.setStatus({ code: SpanStatusCode.ERROR, message: 'client aborted' });
  } else {
    traced.span.setAttribute('http.response.status_code', status);
    if (status >= 500) traced.span.setStatus({ code: SpanStatusCode.ERROR });
  }
  traced.span.end();
}
