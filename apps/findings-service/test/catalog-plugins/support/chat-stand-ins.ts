import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Loopback HTTP stand-ins for the chat APIs the catalog's notification channels post to
 * (tools/catalog/plugins/*-channel): a bot messenger's Bot API (`/bot<token>/sendMessage`),
 * team chat webhooks (Slack-style `ok`/`no_service`, Teams-style `1`), a self-hosted chat
 * server's `/hooks/<id>` and a bot API with `/messages?chat_id=` and `Authorization`. Each is a
 * real HTTP server on 127.0.0.1 that records every request (path, headers incl.
 * `Idempotency-Key`, body) and has the failure switches of the design's test plan (§7).
 */
export interface ChatRequest {
  method: string;
  /** Path and query as sent. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  idempotencyKey?: string;
}

export interface Answer {
  status: number;
  body: string | Record<string, unknown>;
  headers?: Record<string, string>;
}

/** What the stand-in does with the next requests (set by the test). */
export type Switch =
  | { kind: 'normal' }
  | { kind: 'slow'; ms: number }
  | { kind: 'status'; answer: Answer }
  | { kind: 'rateLimit'; retryAfterSeconds: number }
  | { kind: 'garbage' }
  | { kind: 'huge' }
  | { kind: 'redirect'; to: string };

export interface ChatStandIn {
  url: string;
  requests: ChatRequest[];
  /** The 10 MB answers: bytes written before the client dropped the connection, and whether all were. */
  hugeAnswers: Array<{ written: number; finished: boolean }>;
  set(next: Switch): void;
  /** Connection refused until `up()` (the listening socket is closed). */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

interface Api {
  /** The answer in normal mode. */
  normal(request: ChatRequest, url: URL): Answer;
  /** The API's own 429 (body shape, Retry-After header or body field). */
  rateLimited(seconds: number): Answer;
}

const HUGE_BYTES = 10 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

function send(response: ServerResponse, answer: Answer): void {
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json',
    ...(answer.headers ?? {}),
  });
  response.end(text);
}

/** Streams 10 MB with back-pressure and records how far it got. */
function sendHuge(response: ServerResponse, record: ChatStandIn['hugeAnswers'][number]): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  const pump = () => {
    while (record.written < HUGE_BYTES) {
      record.written += CHUNK.length;
      if (!response.write(CHUNK)) {
        response.once('drain', pump);
        return;
      }
    }
    response.end(() => (record.finished = true));
  };
  response.on('close', () => response.removeAllListeners('drain'));
  pump();
}

async function startChat(api: Api): Promise<ChatStandIn> {
  const requests: ChatRequest[] = [];
  const hugeAnswers: ChatStandIn['hugeAnswers'] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let current: Switch = { kind: 'normal' };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const key = request.headers['idempotency-key'];
      const recorded: ChatRequest = {
        method: request.method ?? '',
        path: request.url ?? '/',
        headers: { ...request.headers },
        body: Buffer.concat(chunks).toString('utf8'),
        idempotencyKey: typeof key === 'string' ? key : undefined,
      };
      requests.push(recorded);
      const mode = current;
      switch (mode.kind) {
        case 'slow':
          timers.add(
            setTimeout(() => {
              if (!response.destroyed) send(response, api.normal(recorded, url));
            }, mode.ms),
          );
          return;
        case 'status':
          return send(response, mode.answer);
        case 'rateLimit':
          return send(response, api.rateLimited(mode.retryAfterSeconds));
        case 'garbage':
          return send(response, {
            status: 200,
            body: '<!DOCTYPE html><html><body><h1>Sign in to continue</h1></body></html>',
            headers: { 'content-type': 'text/html' },
          });
        case 'huge': {
          const record = { written: 0, finished: false };
          hugeAnswers.push(record);
          return sendHuge(response, record);
        }
        case 'redirect':
          return send(response, { status: 302, body: '', headers: { location: mode.to } });
        case 'normal':
          return send(response, api.normal(recorded, url));
      }
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hugeAnswers,
    set: (next) => (current = next),
    down: stop,
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}

/** Bot messenger A: `POST /bot<token>/sendMessage`, `{ok, result: {message_id}}`. */
export function startTelegramStandIn(token: string, chatId: string): Promise<ChatStandIn> {
  let messageId = 100;
  return startChat({
    normal: (request, url) => {
      if (url.pathname !== `/bot${token}/sendMessage`) {
        return { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } };
      }
      const body = JSON.parse(request.body) as { chat_id?: string; text?: string };
      if (body.chat_id !== chatId) {
        return {
          status: 400,
          body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
        };
      }
      if ((body.text ?? '').length > 4096) {
        return {
          status: 400,
          body: { ok: false, error_code: 400, description: 'Bad Request: message is too long' },
        };
      }
      return { status: 200, body: { ok: true, result: { message_id: ++messageId } } };
    },
    rateLimited: (seconds) => ({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: `Too Many Requests: retry after ${seconds}`,
        parameters: { retry_after: seconds },
      },
    }),
  });
}

/** Team chat webhook B: `POST /services/...` → `ok`; plain-text error codes. */
export function startSlackStandIn(hookPath: string): Promise<ChatStandIn> {
  return startChat({
    normal: (_request, url) =>
      url.pathname === hookPath ? { status: 200, body: 'ok' } : { status: 404, body: 'no_service' },
    rateLimited: (seconds) => ({
      status: 429,
      body: 'rate_limited',
      headers: { 'retry-after': String(seconds) },
    }),
  });
}

/** Team chat webhook C: `POST /webhookb2/...` → `1`. */
export function startTeamsStandIn(hookPath: string): Promise<ChatStandIn> {
  return startChat({
    normal: (_request, url) =>
      url.pathname === hookPath
        ? { status: 200, body: '1' }
        : { status: 404, body: { error: { code: 'NotFound', message: 'Webhook not found' } } },
    rateLimited: (seconds) => ({
      status: 429,
      body: { error: { code: 'TooManyRequests', message: 'Too many requests' } },
      headers: { 'retry-after': String(seconds) },
    }),
  });
}

/** The self-hosted chat server: `POST /hooks/<id>` → `ok`; errors `{id, message, status_code}`. */
export function startMattermostStandIn(hookId: string): Promise<ChatStandIn> {
  return startChat({
    normal: (_request, url) =>
      url.pathname === `/hooks/${hookId}`
        ? { status: 200, body: 'ok' }
        : {
            status: 400,
            body: {
              id: 'web.incoming_webhook.invalid.app_error',
              message: 'Invalid webhook.',
              status_code: 400,
            },
          },
    rateLimited: (seconds) => ({
      status: 429,
      body: { id: 'api.context.rate_limit', message: 'Too many requests', status_code: 429 },
      headers: { 'retry-after': String(seconds) },
    }),
  });
}

/** Bot messenger D: `POST /messages?chat_id=` with `Authorization: <token>`. */
export function startMaxStandIn(token: string, chatId: string): Promise<ChatStandIn> {
  let mid = 0;
  return startChat({
    normal: (request, url) => {
      if (url.pathname !== '/messages') {
        return { status: 404, body: { code: 'not.found', message: 'Path not found' } };
      }
      if (request.headers['authorization'] !== token) {
        return { status: 401, body: { code: 'verify.token', message: 'Invalid access_token' } };
      }
      if (url.searchParams.get('chat_id') !== chatId) {
        return { status: 404, body: { code: 'chat.not.found', message: 'Chat not found' } };
      }
      return { status: 200, body: { message: { body: { mid: `mid.${++mid}`, text: 'x' } } } };
    },
    rateLimited: (seconds) => ({
      status: 429,
      body: { code: 'too.many.requests', message: 'Too many requests' },
      headers: { 'retry-after': String(seconds) },
    }),
  });
}
