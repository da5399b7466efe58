import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizeIpAddress } from '@platform/http';
import { requestContextOf } from '../request-context/request-context.hooks';
import type { ProcessLogger } from '@platform/logging';

/** Agent polling routes: their successful calls are logged at debug to keep logs readable. */
export const HIGH_FREQUENCY_AGENT_ROUTES: ReadonlySet<string> = new Set([
  '/api/v1/requests/:id/status',
  '/api/v1/requests/:id/checkin',
  '/api/v1/requests/:id/bundle-version',
  '/api/v1/requests/:id/certificate',
]);

export type AccessLogLevel = 'debug' | 'info' | 'warn' | 'error';

export function accessLogLevel(status: number, route: string): AccessLogLevel {
  if (status >= 500) return 'error';
  if (status >= 400) return 'warn';
  return HIGH_FREQUENCY_AGENT_ROUTES.has(route) ? 'debug' : 'info';
}

/** `latency_ms`: seconds as a number in production (despite the name), `12.4ms` in dev mode. */
export function formatLatency(seconds: number, devMode: boolean): number | string {
  return devMode ? `${(seconds * 1000).toFixed(1)}ms` : seconds;
}

/** First address of `X-Forwarded-For`, else the connection's address. */
export function clientIpOf(request: FastifyRequest): string {
  const header = request.headers['x-forwarded-for'];
  const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
  return normalizeIpAddress(first || request.socket.remoteAddress || '');
}

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function bytesOf(reply: FastifyReply): number {
  const length = Number(reply.getHeader('content-length'));
  return Number.isFinite(length) ? length : 0;
}

/**
 * One access line per request, except `GET /health`, written with the process logger itself
 * (its fields carry `request_id`; the per-request logger would add it a second time).
 */
export function installAccessLog(
  app: FastifyInstance,
  logger: ProcessLogger,
  options: { devMode: boolean },
): void {
  app.addHook('onResponse', (request, reply, done) => {
    const path = pathOf(request.url);
    const context = requestContextOf(request);
    if (path === '/health' || !context) return done();
    const route = request.routeOptions.url ?? '';
    const seconds = Number(process.hrtime.bigint() - context.startedAt) / 1e9;
    const line: Record<string, unknown> = {
      status: reply.statusCode,
      method: request.method,
      path,
      route,
      latency_ms: formatLatency(seconds, options.devMode),
      client_ip: clientIpOf(request),
      bytes: bytesOf(reply),
      request_id: context.requestId,
    };
    if (context.actor) {
      line.actor = context.actor.kind === 'user' ? context.actor.email : `sa:${context.actor.name}`;
      line.actor_role = context.actor.role ?? '';
    }
    if (context.errors.length > 0) line.errors = context.errors.join('; ');
    if (context.serial !== undefined) line.serial = context.serial;
    logger[accessLogLevel(reply.statusCode, route)](line, 'request');
    done();
  });
}
