import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';

export interface LingeringCloseOptions {
  /** Longest time the rest of a refused body is read after the answer (default 5 s). */
  graceMs?: number;
  /** Most bytes of it read before the connection is closed anyway (default 32 MiB). */
  graceBytes?: number;
}

const DEFAULT_GRACE_MS = 5_000;
const DEFAULT_GRACE_BYTES = 32 * 1024 * 1024;

/**
 * A request refused before its body was read in full (413 while an upload streams, a body
 * parser's refusal) is answered with `Connection: close`. Node then closes the socket as soon
 * as the answer is flushed, with the client's further body bytes unread in the kernel: the
 * kernel answers them with a reset, and a client that had not yet read the answer (it was
 * still writing) loses it — it sees "connection reset" instead of the refusal. Here such a
 * connection is closed the way HTTP servers do it ("lingering close"): the answer and a FIN
 * go out, the rest of the body is read and discarded until the client stops sending or closes,
 * bounded by `graceBytes` and `graceMs`, and only then is the socket closed.
 *
 * Per request this costs one check of the request in `onResponse`; only such refusals linger.
 */
export function installLingeringClose(
  fastify: FastifyInstance,
  options: LingeringCloseOptions = {},
): void {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const graceBytes = options.graceBytes ?? DEFAULT_GRACE_BYTES;
  fastify.addHook('onResponse', (request, reply, done) => {
    const raw = request.raw;
    if (!raw.complete && closesAfterAnswer(reply.getHeader('connection'))) {
      lingerBeforeClose(raw, graceMs, graceBytes);
    }
    done();
  });
}

/**
 * For a route that refuses a streamed body part-way (its parser unpiped from the request): the
 * answer goes out at once with `Connection: close`, and the rest of the body is discarded
 * unread, never buffered — after the answer for the lingering close's bounds.
 */
export function closeAfterRefusal(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('connection', 'close');
  request.raw.unpipe();
  request.raw.resume();
}

function closesAfterAnswer(header: unknown): boolean {
  return typeof header === 'string' && header.toLowerCase() === 'close';
}

function lingerBeforeClose(request: IncomingMessage, graceMs: number, graceBytes: number): void {
  const socket = request.socket;
  if (socket.destroyed) return;
  // Node's `destroySoon` (the server's close after a last answer) has ended the socket and
  // waits for its `finish` to destroy it; that destroy is replaced by the bounded one below.
  socket.removeListener('finish', socket.destroy);
  let drained = 0;
  const close = (): void => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, graceMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  request.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > graceBytes) close();
  });
  // The client sent its whole body: nothing is left unread, close now.
  request.once('end', close);
  request.resume();
}
