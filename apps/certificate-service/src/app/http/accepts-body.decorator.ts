import { RouteConfig } from '@nestjs/platform-fastify';
import { ACCEPTED_CONTENT_TYPES } from '@platform/http';

/**
 * Lets a route accept request bodies of other media types than `application/json` (e.g.
 * `application/pkcs10`) without counting a content-type violation. The route still needs a
 * Fastify content parser for the type.
 */
export const AcceptsBody = (...mediaTypes: string[]): MethodDecorator =>
  RouteConfig({ [ACCEPTED_CONTENT_TYPES]: mediaTypes.map((t) => t.toLowerCase()) });
