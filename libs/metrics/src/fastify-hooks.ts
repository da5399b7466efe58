import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpMetrics } from './http-metrics';

const START = Symbol('metricsStart');
type Timed = FastifyRequest & { [START]?: bigint };

/** Route template of a request, or '' when no route matched (404s never explode cardinality). */
export function routeTemplate(request: FastifyRequest): string {
  return request.routeOptions?.url ?? '';
}

/** Observes every request (including 404s and errors) at the transport level. */
export function installHttpMetrics(
  app: FastifyInstance,
  metrics: HttpMetrics,
  options: { skip?: (request: FastifyRequest) => boolean } = {},
): void {
  app.addHook('onRequest', async (request: Timed) => {
    if (options.skip?.(request)) return;
    request[START] = process.hrtime.bigint();
    metrics.started();
  });
  app.addHook('onResponse', async (request: Timed, reply) => {
    const start = request[START];
    if (start === undefined) return;
    metrics.finished({
      method: request.method,
      route: routeTemplate(request),
      status: reply.statusCode,
      durationSeconds: Number(process.hrtime.bigint() - start) / 1e9,
    });
  });
}
