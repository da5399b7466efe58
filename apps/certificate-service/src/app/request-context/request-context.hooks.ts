import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { RequestContext, type RequestContextState } from './request-context';

const contexts = new WeakMap<IncomingMessage, RequestContextState>();

/** The context of a request (also reachable through `RequestContext.current()`). */
export function requestContextOf(request: FastifyRequest): RequestContextState | undefined {
  return contexts.get(request.raw);
}

/**
 * Opens the request context (request id from `genReqId`). The AsyncLocalStorage scope is
 * entered again before the handler because body parsing runs outside it.
 */
export function installRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const state = RequestContext.create(request.id);
    contexts.set(request.raw, state);
    RequestContext.run(state, done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const state = contexts.get(request.raw);
    if (state) RequestContext.run(state, done);
    else done();
  });
}
