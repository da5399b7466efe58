import Fastify from 'fastify';
import { installJsonReplySerializer, jsonReplyBody } from './json-reply';

describe('JSON replies as one Buffer', () => {
  const page = {
    data: {
      items: Array.from({ length: 50 }, (_, i) => ({
        id: `finding-${i}`,
        title: `quote " backslash \\ newline \n ünïcödé ✓ 🔐 \u2028 lone \ud800 ${'x'.repeat(1500)}`,
        score: i / 3,
        tags: [],
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
        ticket: null,
      })),
      next_cursor: null,
    },
  };

  it('holds exactly the UTF-8 bytes of JSON.stringify', () => {
    for (const payload of [page, { error: 'x', code: 'y' }, [], null, 'text', 42]) {
      const body = jsonReplyBody(payload);
      expect(Buffer.isBuffer(body)).toBe(true);
      expect((body as Buffer).equals(Buffer.from(JSON.stringify(payload)))).toBe(true);
    }
    expect(jsonReplyBody(undefined)).toBeUndefined();
  });

  it('a route replies with the same bytes, JSON content type and length', async () => {
    const fastify = Fastify();
    installJsonReplySerializer(fastify);
    fastify.get('/page', () => page);
    fastify.get('/refused', (_request, reply) => reply.code(400).send({ error: 'no', code: 'x' }));
    const res = await fastify.inject({ method: 'GET', url: '/page' });
    expect(res.rawPayload.equals(Buffer.from(JSON.stringify(page)))).toBe(true);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(page))));
    const refused = await fastify.inject({ method: 'GET', url: '/refused' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toBe('{"error":"no","code":"x"}');
    await fastify.close();
  });
});
