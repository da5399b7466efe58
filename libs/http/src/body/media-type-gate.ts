import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestBodyError } from './request-body-error';

/** Route config key listing media types a route takes besides `application/json`. */
export const ACCEPTED_CONTENT_TYPES = 'acceptedContentTypes';

/** A route that takes bodies of other media types (e.g. `multipart/form-data`). */
export const AcceptsBody = (...mediaTypes: string[]): MethodDecorator =>
  RouteConfig({ [ACCEPTED_CONTENT_TYPES]: mediaTypes.map((t) => t.toLowerCase()) });

export function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}

export function bodyMediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

function acceptedMediaTypes(request: FastifyRequest): readonly string[] {
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  const extra = config?.[ACCEPTED_CONTENT_TYPES];
  return ['application/json', ...(Array.isArray(extra) ? (extra as string[]) : [])];
}

/** A request with a body whose media type its route does not take. */
export function violatesBodyMediaType(request: FastifyRequest): boolean {
  return carriesBody(request) && !acceptedMediaTypes(request).includes(bodyMediaType(request));
}

export type MediaTypeVerdict = 'refuse' | 'allow';

/**
 * Answers 415 (`RequestBodyError` `unsupported_media_type`, through the service's exception
 * filter) before the body is read when its media type is not one the route takes;
 * `onViolation` may count the request and let it through instead.
 */
export function installMediaTypeGate(
  fastify: FastifyInstance,
  onViolation: (request: FastifyRequest) => MediaTypeVerdict = () => 'refuse',
): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (!violatesBodyMediaType(request) || onViolation(request) === 'allow') return done();
    done(RequestBodyError.unsupportedMediaType());
  });
}
