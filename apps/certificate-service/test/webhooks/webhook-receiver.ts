import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../src/modules/webhooks/webhook-signing';

/** One request as the receiver saw it. */
export interface Received {
  path: string;
  delivery: string;
  event: string;
  timestamp: string;
  signature: string;
  body: string;
  json: Record<string, unknown>;
  /** Signature verified with the receiver's secret (when it has one). */
  verified: boolean;
}

/** How the receiver answers its n-th request (1-based) on a path. */
export interface Answer {
  status: number;
  delayMs?: number;
  body?: string;
}
export type Behaviour = (n: number, req: Received) => Answer | 'hang';

/**
 * A loopback webhook receiver (a real HTTP server on 127.0.0.1): verifies signatures with the
 * secret of each path, deduplicates by `X-Certsvc-Delivery` as a receiver should, and answers
 * per path as the test programs it (fail the first attempts, answer slowly, hang, accept).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly secrets = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private server!: Server;
  port = 0;

  async start(host = '127.0.0.1', port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server.listen(port, host, resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  on(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  secret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** What the receiver's own application sees: each delivery once (idempotency key). */
  unique(path?: string): Received[] {
    const seen = new Map<string, Received>();
    for (const r of this.received) {
      if ((path === undefined || r.path === path) && !seen.has(r.delivery)) seen.set(r.delivery, r);
    }
    return [...seen.values()];
  }

  of(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    const header = (name: string) => String(req.headers[name] ?? '');
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(body) as Record<string, unknown>;
    } catch {
      json = {};
    }
    const secret = this.secrets.get(path);
    const received: Received = {
      path,
      delivery: header('x-certsvc-delivery'),
      event: header('x-certsvc-event'),
      timestamp: header('x-certsvc-timestamp'),
      signature: header('x-certsvc-signature'),
      body,
      json,
      verified:
        secret !== undefined &&
        verifyWebhook({
          secret,
          body,
          timestamp: header('x-certsvc-timestamp'),
          signature: header('x-certsvc-signature'),
        }),
    };
    this.received.push(received);
    const n = (this.counts.get(path) ?? 0) + 1;
    this.counts.set(path, n);
    const behaviour: Behaviour = this.behaviours.get(path) ?? (() => ({ status: 200 }));
    const answer = behaviour(n, received);
    if (answer === 'hang') return;
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body ?? '{}');
  }
}
