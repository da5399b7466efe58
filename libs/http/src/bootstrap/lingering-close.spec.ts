import Fastify, { type FastifyInstance } from 'fastify';
import { once } from 'node:events';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { installLingeringClose, type LingeringCloseOptions } from './lingering-close';

const BODY_BYTES = 64 * 1024 * 1024;
/** The server side of the last `/small-close` request's connection. */
let lastCloseSocket: Socket | undefined;

/** A route that refuses an upload after its first chunk, as the services' upload routes do. */
async function refusingServer(options: LingeringCloseOptions): Promise<FastifyInstance> {
  const app = Fastify();
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) =>
    done(null, payload),
  );
  app.post('/upload', async (request, reply) => {
    await once(request.body as Readable, 'data');
    void reply.header('connection', 'close');
    return reply.code(413).send({ code: 'too_large' });
  });
  app.post('/small', (_request, reply) => reply.send({ ok: true }));
  app.post('/small-close', (request, reply) => {
    lastCloseSocket = request.raw.socket;
    return reply.header('connection', 'close').send({ ok: true });
  });
  installLingeringClose(app, options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

interface Upload {
  /** The status line's code, or undefined when the connection ended without an answer. */
  status?: number;
  /** Bytes of body written when the answer was read, and in all. */
  sentAtAnswer?: number;
  sent: number;
  /** Milliseconds from the answer to the connection's close. */
  closedAfterMs?: number;
}

/**
 * Streams a 64 MiB body in 16 KiB writes, `pauseMs` apart, and reads the answer only after
 * `readAfterMs` (a client busy writing); keeps writing after the answer until the server
 * closes the connection or `stopAfterAnswer` says so.
 */
function upload(
  app: FastifyInstance,
  options: { readAfterMs: number; pauseMs: number; stopAfterAnswer: boolean },
): Promise<Upload> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve) => {
    // Half-open: the server's FIN after its answer does not stop this client writing.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const result: Upload = { sent: 0 };
    let answeredAt = 0;
    let answer = '';
    socket.pause();
    setTimeout(() => {
      socket.on('data', (data: Buffer) => {
        answer += data.toString('latin1');
        const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
        if (match && result.status === undefined) {
          result.status = Number(match[1]);
          result.sentAtAnswer = result.sent;
          answeredAt = Date.now();
          if (options.stopAfterAnswer) socket.destroy();
        }
      });
      socket.resume();
    }, options.readAfterMs);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (answeredAt) result.closedAfterMs = Date.now() - answeredAt;
      resolve(result);
    });
    socket.write(
      'POST /upload HTTP/1.1\r\nHost: test\r\nContent-Type: application/octet-stream\r\n' +
        `Content-Length: ${BODY_BYTES}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    const pump = (): void => {
      if (result.sent >= BODY_BYTES || socket.destroyed) return;
      result.sent += chunk.length;
      socket.write(chunk, () => setTimeout(pump, options.pauseMs));
    };
    pump();
  });
}

describe('installLingeringClose', () => {
  it('a client still writing when it is refused reads the answer, even 300 ms later', async () => {
    const app = await refusingServer({});
    try {
      // Without it the server closes at once, the kernel resets the client's next write,
      // and the answer the client had not read yet is lost with the connection.
      const result = await upload(app, { readAfterMs: 300, pauseMs: 1, stopAfterAnswer: true });
      expect(result.status).toBe(413);
      expect(result.sent).toBeLessThan(BODY_BYTES);
    } finally {
      await app.close();
    }
  });

  it('reads at most graceBytes of the rest, then closes', async () => {
    const app = await refusingServer({ graceBytes: 1024 * 1024, graceMs: 60_000 });
    try {
      const result = await upload(app, { readAfterMs: 0, pauseMs: 0, stopAfterAnswer: false });
      expect(result.status).toBe(413);
      // 1 MiB read by the server, plus what the two sockets' buffers held.
      expect(result.sent - (result.sentAtAnswer ?? 0)).toBeGreaterThan(1024 * 1024);
      expect(result.sent).toBeLessThan(BODY_BYTES / 2);
    } finally {
      await app.close();
    }
  });

  it('reads for at most graceMs, then closes', async () => {
    const app = await refusingServer({ graceBytes: BODY_BYTES, graceMs: 300 });
    try {
      const result = await upload(app, { readAfterMs: 0, pauseMs: 20, stopAfterAnswer: false });
      expect(result.status).toBe(413);
      expect(result.closedAfterMs).toBeGreaterThanOrEqual(250);
      expect(result.closedAfterMs).toBeLessThan(5_000);
    } finally {
      await app.close();
    }
  });

  it('closes at once after a Connection: close answer to a complete body (nothing left to read)', async () => {
    const app = await refusingServer({ graceMs: 60_000 });
    try {
      const { port } = app.server.address() as AddressInfo;
      // Half-open and idle after its request: a lingering server would wait the whole graceMs.
      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      socket.on('error', () => undefined);
      let text = '';
      socket.on('data', (data: Buffer) => (text += data.toString('latin1')));
      socket.write(
        // JSON: the body is read in full (its stream has ended) before the route answers.
        'POST /small-close HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n' +
          'Content-Length: 2\r\n\r\n{}',
      );
      const deadline = Date.now() + 2_000;
      while (!lastCloseSocket?.destroyed && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(text).toMatch(/^HTTP\/1\.1 200/);
      expect(lastCloseSocket?.destroyed).toBe(true);
      socket.destroy();
    } finally {
      await app.close();
    }
  });

  it('leaves answers after a complete body alone: the connection is kept for the next request', async () => {
    const app = await refusingServer({});
    try {
      const { port } = app.server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (data: Buffer) => (text += data.toString('latin1')));
      const request =
        'POST /small HTTP/1.1\r\nHost: test\r\nContent-Type: application/octet-stream\r\n' +
        'Content-Length: 2\r\n\r\nok';
      socket.write(request + request);
      const deadline = Date.now() + 5_000;
      while ((text.match(/HTTP\/1\.1 200/g) ?? []).length < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect((text.match(/HTTP\/1\.1 200/g) ?? []).length).toBe(2);
      expect(socket.destroyed).toBe(false);
      socket.destroy();
    } finally {
      await app.close();
    }
  });
});
