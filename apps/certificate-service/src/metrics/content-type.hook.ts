import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ContentTypeEnforcement } from '../config/certsvc-config';
import { requestContextOf } from '../common/request-context/request-context.hooks';
import type { CertsvcMetrics } from './certsvc-metrics';

/** Route config key listing extra media types a route accepts (see `@AcceptsBody`). */
export const ACCEPTED_CONTENT_TYPES = 'acceptedContentTypes';

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}

function mediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

function acceptedTypes(request: FastifyRequest): readonly string[] {
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  const extra = config?.[ACCEPTED_CONTENT_TYPES];
  return ['application/json', ...(Array.isArray(extra) ? (extra as string[]) : [])];
}

/**
 * A request carrying a body that is not `application/json` (unless the route accepts its
 * type) is counted; with enforcement `reject` it is also answered 415.
 */
export function installContentTypeEnforcement(
  app: FastifyInstance,
  metrics: CertsvcMetrics,
  rung: ContentTypeEnforcement,
): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!hasBody(request) || acceptedTypes(request).includes(mediaType(request))) return done();
    const route = request.routeOptions.url ?? '';
    metrics.contentTypeViolation(route, rung);
    if (rung === 'observe') return done();
    requestContextOf(request)?.errors.push('unsupported_media_type');
    void reply.code(415).send({
      code: 'unsupported_media_type',
      message: 'request body must be application/json',
    });
  });
}
