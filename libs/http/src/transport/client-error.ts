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
 * Fastify `clientErrorHandler`: what the HTTP parser refuses (a URL or headers over the
 * 16 KiB limit, a malformed request line, a time-out) is answered in the service's error
 * envelope instead of Fastify's own `{error, message, statusCode}`, then the connection closes.
 */
export function clientErrorHandler(
  envelope: (refusal: TransportRefusal) => object,
): (error: Error, socket: Socket) => void {
  return (error, socket) => {
    if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || socket.destroyed) return;
    const refusal = transportRefusalOf(error);
    const body = JSON.stringify(envelope(refusal));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n' +
          body,
      );
    }
    socket.destroy(error);
  };
}
