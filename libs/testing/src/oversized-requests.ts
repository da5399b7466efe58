import { connect } from 'node:net';

const PIECE_BYTES = 16 * 1024;

/** What one raw HTTP/1.1 request with an oversized request line got back. */
export interface OversizedRequestOutcome {
  /** Status of the answer's status line; undefined when no answer arrived. */
  status?: number;
  /** The answer's body (after the blank line), when one arrived. */
  body?: string;
  /** The socket error the client saw (ECONNRESET, EPIPE, ...), if any. */
  error?: string;
}

/**
 * Sends `parallel` raw `GET <path>?pad=<urlBytes bytes>` requests at once, each on its own
 * connection, writing the whole request line as a client would even while the server has
 * already answered, and collects what each connection received before it closed. A server
 * that closes a connection with unread request bytes makes the client's kernel see a reset:
 * such a request ends with `error` and no `status`.
 */
export async function sendOversizedRequestLines(options: {
  host: string;
  port: number;
  path: string;
  parallel: number;
  urlBytes: number;
  timeoutMs?: number;
}): Promise<OversizedRequestOutcome[]> {
  const pad = 'u'.repeat(options.urlBytes);
  const request = Buffer.from(
    `GET ${options.path}?pad=${pad} HTTP/1.1\r\nHost: ${options.host}\r\nAccept: application/json\r\n\r\n`,
  );
  const one = () =>
    new Promise<OversizedRequestOutcome>((resolve) => {
      const chunks: Buffer[] = [];
      let error: string | undefined;
      const socket = connect({ host: options.host, port: options.port });
      const timer = setTimeout(() => {
        error ??= 'client time-out';
        socket.destroy();
      }, options.timeoutMs ?? 60_000);
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
      socket.on('close', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text)?.[1];
        const split = text.indexOf('\r\n\r\n');
        resolve({
          ...(status ? { status: Number(status) } : {}),
          ...(split >= 0 ? { body: text.slice(split + 4) } : {}),
          ...(error ? { error } : {}),
        });
      });
      // Like a client on a slower link: the request goes out in 16 KiB pieces, one per turn of
      // the event loop, while whatever arrives is read; no half-close, the server ends the
      // connection. A server that closes with request bytes unread resets the connection, and
      // the client's kernel drops the answer it had not handed over yet.
      socket.on('connect', () => {
        let offset = 0;
        const next = (): void => {
          if (socket.destroyed || offset >= request.length) return;
          socket.write(request.subarray(offset, offset + PIECE_BYTES));
          offset += PIECE_BYTES;
          setImmediate(next);
        };
        next();
      });
    });
  return Promise.all(Array.from({ length: options.parallel }, one));
}
