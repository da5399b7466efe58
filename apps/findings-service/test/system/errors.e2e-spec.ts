import { Logger } from '@nestjs/common';
import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';

describe('Errors - envelope and localization', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('localizes the same error by Accept-Language (en default, ru, q-values)', async () => {
    const get = (lang?: string) => {
      const req = request(t.url).get('/api/v1/auth/me');
      return lang ? req.set('Accept-Language', lang) : req;
    };
    const en = (await get().expect(401)).body;
    expect(en).toEqual({ error: 'authentication required', code: 'authentication_required' });
    expect((await get('ru-RU,ru;q=0.9,en;q=0.8').expect(401)).body).toEqual({
      error: 'требуется аутентификация',
      code: 'authentication_required',
    });
    expect((await get('en;q=0.5, ru;q=0.9').expect(401)).body.error).toBe(
      'требуется аутентификация',
    );
    expect((await get('ru;q=0.1, en').expect(401)).body.error).toBe('authentication required');
    expect((await get('de-DE').expect(401)).body.error).toBe('authentication required');
  });

  it('wraps framework errors: unknown route 404, validation 400 with fields, 415, 413', async () => {
    const notFound = await request(t.url)
      .get('/api/v1/no-such-thing')
      .set('Accept-Language', 'ru')
      .expect(404);
    expect(notFound.body).toEqual({ error: 'не найдено', code: 'not_found' });
    const invalid = await request(t.url)
      .post('/api/v1/test-probe/echo')
      .send({ name: 5, count: 0, extra: 1 })
      .expect(400);
    expect(invalid.body.code).toBe('validation_failed');
    expect(invalid.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'count',
      'extra',
      'name',
    ]);
    const media = await request(t.url)
      .post('/api/v1/test-probe/echo')
      .set('Content-Type', 'application/xml')
      .send('<a/>')
      .expect(415);
    expect(media.body.code).toBe('unsupported_media_type');
    const big = await request(t.url)
      .post('/api/v1/test-probe/echo')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), count: 1 }))
      .expect(413);
    expect(big.body.code).toBe('payload_too_large');
    const malformed = await request(t.url)
      .post('/api/v1/test-probe/echo')
      .set('Content-Type', 'application/json')
      .send('{oops')
      .expect(400);
    expect(malformed.body.code).toBe('bad_request');
  });

  it('wraps successes under /api/v1 in data', async () => {
    const ok = await request(t.url)
      .post('/api/v1/test-probe/echo')
      .send({ name: 'a', count: 2 })
      .expect(201);
    expect(ok.body).toEqual({ data: { name: 'a', count: 2 } });
  });

  it('hides unknown errors behind a generic 500 with an error id that is logged', async () => {
    const spy = jest.spyOn(Logger.prototype, 'error');
    const res = await request(t.url).get('/api/v1/test-probe/boom').expect(500);
    expect(res.body).toEqual({
      error: 'internal error',
      code: 'internal_error',
      error_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const calls = spy.mock.calls.map((c) => c[0] as { err?: Error; error_id?: string });
    spy.mockRestore();
    const logged = calls.find((c) => c.error_id === res.body.error_id);
    expect(logged?.err?.message).toBe('probe exploded');
    expect(logged?.err?.stack).toContain('ProbeController.boom');
    expect(JSON.stringify(res.body)).not.toContain('probe exploded');
  });
});
