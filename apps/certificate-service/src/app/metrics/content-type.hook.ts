import type { MediaTypeVerdict } from '@platform/http';
import type { FastifyRequest } from 'fastify';
import type { ContentTypeEnforcement } from '../config/certsvc-config';
import type { CertsvcMetrics } from './certsvc-metrics';

/**
 * A request carrying a body that is not `application/json` (unless the route accepts its
 * type) is counted. At `reject` it is answered 415 `unsupported_media_type` through the
 * exception filter before the body is read; at `observe` it goes on and the body parser reads
 * it as JSON (400 `invalid_request` when it is not).
 */
export function contentTypeEnforcement(
  metrics: CertsvcMetrics,
  rung: ContentTypeEnforcement,
): (request: FastifyRequest) => MediaTypeVerdict {
  return (request) => {
    metrics.contentTypeViolation(request.routeOptions.url ?? '', rung);
    return rung === 'reject' ? 'refuse' : 'allow';
  };
}
