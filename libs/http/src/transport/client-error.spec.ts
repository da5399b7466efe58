import Fastify, { type FastifyInstance } from 'fastify';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientErrorHandler } from './client-error';

function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('clientErrorHandler', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = Fastify({
      clientErrorHandler: clientErrorHandler((r) => ({ code: r.code, message: r.message })),
    });
    app.get('/ok', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  it('answers a URL over the header limit with 431 in the given envelope', async () => {
    const res = await rawGet(port, `/ok?pad=${'u'.repeat(20_000)}`);
    expect(res).toEqual({
      status: 431,
      body: JSON.stringify({
        code: 'headers_too_large',
        message: 'request line and headers exceed 16 KiB',
      }),
    });
    expect((await rawGet(port, '/ok')).status).toBe(200);
  });
});
