import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { installJsonBodyParser } from './json-body-parser';
import {
  ACCEPTED_CONTENT_TYPES,
  installMediaTypeGate,
  type MediaTypeVerdict,
} from './media-type-gate';
import { RequestBodyError } from './request-body-error';

function server(onViolation?: (request: FastifyRequest) => MediaTypeVerdict): FastifyInstance {
  const app = Fastify();
  installJsonBodyParser(app, { bodyLimit: 1000 });
  installMediaTypeGate(app, onViolation);
  app.addContentTypeParser('application/pkcs10', { parseAs: 'string' }, (_r, body, done) =>
    done(null, { csr: body }),
  );
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    if (error instanceof RequestBodyError) return reply.code(415).send({ code: error.code });
    return reply.code(error.statusCode ?? 500).send({ code: 'other' });
  });
  app.post('/json', async (request) => ({ body: request.body ?? null }));
  app.post('/csr', { config: { [ACCEPTED_CONTENT_TYPES]: ['application/pkcs10'] } }, async (r) => ({
    body: r.body,
  }));
  return app;
}

describe('installMediaTypeGate', () => {
  const post = (app: FastifyInstance, url: string, payload: string, type: string) =>
    app.inject({ method: 'POST', url, payload, headers: { 'content-type': type } });

  it('refuses a body of a media type the route does not take, before reading it', async () => {
    const app = server();
    expect((await post(app, '/json', 'x', 'application/pkcs10')).json()).toEqual({
      code: 'unsupported_media_type',
    });
    expect((await post(app, '/csr', 'x', 'application/pkcs10')).json()).toEqual({
      body: { csr: 'x' },
    });
    expect((await post(app, '/json', '{"a":1}', 'application/json')).json()).toEqual({
      body: { a: 1 },
    });
    await app.close();
  });

  it('lets a violation through when the service only observes it', async () => {
    const seen: string[] = [];
    const app = server((request) => {
      seen.push(request.routeOptions.url ?? '');
      return 'allow';
    });
    expect((await post(app, '/json', 'x', 'application/pkcs10')).statusCode).toBe(200);
    expect(seen).toEqual(['/json']);
    await app.close();
  });
});
