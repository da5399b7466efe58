import Fastify, { type FastifyInstance } from 'fastify';
import { installJsonBodyParser, type JsonBodyOptions } from './json-body-parser';
import { RequestBodyError } from './request-body-error';

interface Echo {
  body: unknown;
  raw: string | null;
}

function server(options: Partial<JsonBodyOptions> = {}): FastifyInstance {
  const app = Fastify({ bodyLimit: 1000 });
  installJsonBodyParser(app, { bodyLimit: 1000, keepRawBody: true, ...options });
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const code = error instanceof RequestBodyError ? error.code : String(error.statusCode);
    void reply.code(error instanceof RequestBodyError ? 400 : (error.statusCode ?? 500)).send({
      code,
    });
  });
  app.post('/echo', async (request): Promise<Echo> => {
    const raw = (request as { rawBody?: Buffer }).rawBody;
    return { body: request.body ?? null, raw: raw ? raw.toString() : null };
  });
  return app;
}

describe('installJsonBodyParser', () => {
  let app: FastifyInstance;
  beforeEach(() => {
    app = server();
  });
  afterEach(() => app.close());

  const post = (payload: string, contentType?: string) =>
    app.inject({
      method: 'POST',
      url: '/echo',
      payload,
      headers: contentType ? { 'content-type': contentType } : {},
    });

  it('parses JSON and keeps the exact bytes as rawBody', async () => {
    const res = await post('{ "a" : 1 }', 'application/json; charset=utf-8');
    expect(res.json()).toEqual({ body: { a: 1 }, raw: '{ "a" : 1 }' });
  });

  it('reads an empty application/json body as {}', async () => {
    const res = await post('', 'application/json');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ body: {}, raw: '' });
  });

  it('refuses deep nesting and malformed JSON through the error handler', async () => {
    expect((await post('['.repeat(1_000), 'application/json')).json()).toEqual({
      code: 'body_too_deep',
    });
    expect((await post('{oops', 'application/json')).json()).toEqual({ code: 'bad_request' });
  });

  it('answers 413 above the body limit', async () => {
    const res = await post(JSON.stringify({ a: 'x'.repeat(2000) }), 'application/json');
    expect(res.statusCode).toBe(413);
  });

  it('has no other parsers: text/plain and urlencoded bodies are refused as 415', async () => {
    expect((await post('hello', 'text/plain')).json()).toEqual({ code: 'unsupported_media_type' });
    expect((await post('a=1', 'application/x-www-form-urlencoded')).json()).toEqual({
      code: 'unsupported_media_type',
    });
    expect((await post('{"a":1}')).json()).toEqual({ code: 'unsupported_media_type' });
  });

  it('takes an empty body of any media type as no body', async () => {
    const res = await post('', 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ body: null, raw: null });
  });

  it('parses other media types as JSON when asked to (observing mislabelled clients)', async () => {
    const lenient = server({ otherMediaTypes: 'parse-as-json' });
    const inject = (payload: string) =>
      lenient.inject({
        method: 'POST',
        url: '/echo',
        payload,
        headers: { 'content-type': 'text/plain' },
      });
    expect((await inject('{"a":1}')).json()).toEqual({ body: { a: 1 }, raw: '{"a":1}' });
    expect((await inject('hello')).json()).toEqual({ code: 'bad_request' });
    await lenient.close();
  });
});
