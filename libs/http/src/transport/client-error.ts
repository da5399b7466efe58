import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** A request refused by the HTTP parser itself, before any route, hook or filter sees it. */
export interface TransportRefusal {
  status: 400 | 408 | 431;
  code: 'bad_request' | 'request_timeout' | 'headers_too_large';
  message: string;
}

export function transportRefusalOf(error: Error): TransportRefusal {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: 'request_timeout', message: 'request not received in time' };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      code: 'headers_too_large',
      message: 'request line and headers exceed 16 KiB',
    };
  }
  return { status: 400, code: 'bad_request', message: 'malformed HTTP request' };
}

/**
 * How much of a refused request is still read (and dropped) after the answer, so that the
 * client gets the answer instead of a reset: closing a socket with unread bytes makes the
 * kernel send RST, and a client still sending then loses the answer it had not read yet.
 */
export interface RefusedRequestDrain {
  /** Bytes read after the refusal before the connection is cut anyway. */
  maxBytes: number;
  /** The connection is closed once nothing arrived for this long (the client is done). */
  idleMs: number;
  /** Longest time a refused connection is kept at all. */
  maxMs: number;
}

export const DEFAULT_REFUSED_REQUEST_DRAIN: RefusedRequestDrain = {
  maxBytes: 8 * 1024 * 1024,
  idleMs: 1_000,
  maxMs: 10_000,
};

/**
 * Fastify `clientErrorHandler`: what the HTTP parser refuses (a URL or headers over the
 * 16 KiB limit, a malformed request line, a time-out) is answered in the service's error
 * envelope instead of Fastify's own `{error, message, statusCode}`. The answer is sent and
 * the sending side closed (FIN); the rest of the request is then read and dropped — Node's
 * parser keeps reading the socket and reports each further chunk here, ignored — until the
 * client closes, nothing arrives for `idleMs`, `maxBytes` more were read or `maxMs` passed.
 * Only then is the connection closed, so the answer always arrives.
 */
export function clientErrorHandler(
  envelope: (refusal: TransportRefusal) => object,
  drain: RefusedRequestDrain = DEFAULT_REFUSED_REQUEST_DRAIN,
): (error: Error, socket: Socket) => void {
  const refused = new WeakMap<Socket, { bytesRead: number }>();
  return (error, socket) => {
    const code = (error as NodeJS.ErrnoException).code;
    const earlier = refused.get(socket);
    if (earlier) {
      // The same connection again: its parser failing on the rest of the refused request,
      // the client's end of it, or a time-out. Cut it once the budget is spent or it ended.
      if (
        socket.readableEnded ||
        code === 'ECONNRESET' ||
        code === 'ERR_HTTP_REQUEST_TIMEOUT' ||
        socket.bytesRead - earlier.bytesRead > drain.maxBytes
      ) {
        socket.destroy();
      }
      return;
    }
    if (code === 'ECONNRESET' || socket.destroyed) return;
    const refusal = transportRefusalOf(error);
    const body = JSON.stringify(envelope(refusal));
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    refused.set(socket, { bytesRead: socket.bytesRead });
    socket.end(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n' +
        body,
    );
    lingerThenClose(socket, drain);
  };
}

/** Closes `socket` once the client went quiet, or at the latest after `drain.maxMs`. */
function lingerThenClose(socket: Socket, drain: RefusedRequestDrain): void {
  let lastRead = socket.bytesRead;
  const started = Date.now();
  const timer = setInterval(
    () => {
      const quiet = socket.bytesRead === lastRead;
      lastRead = socket.bytesRead;
      if (quiet || Date.now() - started >= drain.maxMs) socket.destroy();
    },
    Math.min(drain.idleMs, drain.maxMs),
  );
  timer.unref();
  socket.once('close', () => clearInterval(timer));
  // A client that ends its side first: nothing more to read.
  socket.once('end', () => socket.destroy());
}
