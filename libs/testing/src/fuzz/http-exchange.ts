import http from 'node:http';
import type { FuzzRequest } from './request-draft';

export interface FuzzResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Set when no complete HTTP answer came back (reset, time-out, client refusal). */
  transportError?: string;
}

export interface ExchangeOptions {
  timeoutMs?: number;
  agent?: http.Agent;
}

/**
 * Sends one request exactly as described (raw path, raw header bytes, raw body). A kept-alive
 * socket the server closed meanwhile (after a 413 or 431, say) is retried once on a new one.
 */
export async function sendFuzzRequest(
  baseUrl: string,
  request: FuzzRequest,
  options: ExchangeOptions = {},
): Promise<FuzzResponse> {
  const first = await exchange(baseUrl, request, options);
  return first.staleSocket ? exchange(baseUrl, request, options) : first;
}

function exchange(
  baseUrl: string,
  request: FuzzRequest,
  options: ExchangeOptions,
): Promise<FuzzResponse & { staleSocket?: boolean }> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const done = (response: FuzzResponse & { staleSocket?: boolean }) => {
      if (!settled) {
        settled = true;
        resolve(response);
      }
    };
    let req: http.ClientRequest | undefined;
    const failed = (error: Error) =>
      done({
        status: 0,
        headers: {},
        body: Buffer.alloc(0),
        transportError: error.message,
        staleSocket: req?.reusedSocket === true && !gotResponse,
      });
    let gotResponse = false;
    try {
      req = http.request({
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers: {
          ...request.headers,
          ...(request.body ? { 'content-length': String(request.body.length) } : {}),
        },
        agent: options.agent,
        timeout: options.timeoutMs ?? 30_000,
      });
    } catch (error) {
      failed(error as Error);
      return;
    }
    req.on('response', (res) => {
      gotResponse = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', failed);
    });
    const sent = req;
    sent.on('timeout', () => sent.destroy(new Error('no answer before the time-out')));
    sent.on('error', failed);
    sent.end(request.body);
  });
}

/** Sends the same request `times` times in a row; the statuses and the last answer's body. */
export async function sendRepeatedly(
  baseUrl: string,
  request: FuzzRequest,
  times: number,
): Promise<{ statuses: number[]; last: Buffer }> {
  const statuses: number[] = [];
  let last: Buffer = Buffer.alloc(0);
  for (let i = 0; i < times; i++) {
    const res = await sendFuzzRequest(baseUrl, request);
    statuses.push(res.status);
    last = res.body;
  }
  return { statuses, last };
}
