import { installMediaTypeGate } from '@platform/http';
import type { FastifyInstance } from 'fastify';
import type { ContentTypeEnforcement } from '../config/certsvc-config';
import type { CertsvcMetrics } from './certsvc-metrics';

/** Route config key listing extra media types a route accepts (see `@AcceptsBody`). */
export { ACCEPTED_CONTENT_TYPES } from '@platform/http';

/**
 * A request carrying a body that is not `application/json` (unless the route accepts its
 * type) is counted. At `reject` it is answered 415 `unsupported_media_type` through the
 * exception filter before the body is read; at `observe` it goes on and the body parser reads
 * it as JSON (400 `invalid_request` when it is not).
 */
export function installContentTypeEnforcement(
  app: FastifyInstance,
  metrics: CertsvcMetrics,
  rung: ContentTypeEnforcement,
): void {
  installMediaTypeGate(app, (request) => {
    metrics.contentTypeViolation(request.routeOptions.url ?? '', rung);
    return rung === 'reject' ? 'refuse' : 'allow';
  });
}
