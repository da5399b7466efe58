/**
 * Webhook outbox delivery benchmark (not part of `npm test`): deliveries per second from the
 * outbox to a loopback receiver, target >= 1 000/s.
 *
 *   bash tools/stack/stack.sh up && eval "$(bash tools/stack/stack.sh env)"
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/webhooks/webhooks-bench.ts
 *
 * Boots the certificate-service API in this process on a fresh database of the stack's
 * PostgreSQL with webhooks on and the worker's delivery side mounted (`WebhookDeliveryModule`,
 * production tuning: batches of 200, 64 calls in flight, 16 per endpoint). The receiver is a
 * plain Node HTTP server in a child process (`receiver-process.ts`, answers 200 `{}`).
 * Setup (not measured): an admin registers BENCH_ENDPOINTS endpoints (default 4, paths of the
 * same receiver) and BENCH_EVENTS events (default 20 000) are written to the outbox with the
 * outbox's own set-based INSERT (events x endpoints rows). Measured: `drain()` until no row is
 * pending — each delivery claimed (FOR UPDATE SKIP LOCKED), signed (HMAC-SHA256), sent through
 * the egress guard (DNS-free literal, address checks, a NEW connection pinned to the checked
 * address: the guard never reuses connections) and recorded (two UPDATEs per batch).
 *
 * In-run references against the same receiver, 64 concurrent clients, BENCH_SECONDS each:
 * a plain keep-alive client (`http.Agent` keepAlive) and a plain client opening a new
 * connection per request (what the guard does), both POSTing the same body size.
 * Rounds alternate reference / outbox. Env: BENCH_EVENTS, BENCH_ENDPOINTS, BENCH_ROUNDS (3),
 * BENCH_SECONDS (5), BENCH_KEEP_DB=1.
 */
import 'reflect-metadata';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { Agent, request } from 'node:http';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DataSource } from 'typeorm';
import { createCertificateApp } from '../../../apps/certificate-service/src/api/create-app';
import { loadCertsvcConfig } from '../../../apps/certificate-service/src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../../apps/certificate-service/src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../../apps/certificate-service/src/app/metrics/certsvc-metrics';
import { WebhookDeliveryModule } from '../../../apps/certificate-service/src/modules/webhooks/webhooks.module';
import { WebhookDeliveryWorker } from '../../../apps/certificate-service/src/modules/webhooks/webhook-delivery.worker';
import { enqueueWebhookEvents } from '../../../apps/certificate-service/src/modules/webhooks/webhook-outbox';
import { adminQuery, stackUrl } from '../support/stack-db';

const EVENTS = Number(process.env['BENCH_EVENTS'] ?? 20_000);
const ENDPOINTS = Number(process.env['BENCH_ENDPOINTS'] ?? 4);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const CLIENTS = 64;
const ADMIN = { email: 'bench@certsvc.local', password: 'bench-password-1234' };

/** The receiver process and its counters. */
class Receiver {
  private readonly lines: AsyncIterableIterator<string>;
  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, null>,
    readonly port: number,
    lines: AsyncIterableIterator<string>,
  ) {
    this.lines = lines;
  }

  static async start(): Promise<Receiver> {
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', join(__dirname, 'receiver-process.ts')],
      { stdio: ['pipe', 'pipe', 'inherit'], env: process.env },
    );
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const first = await lines.next();
    const { port } = JSON.parse(String(first.value)) as { port: number };
    return new Receiver(child, port, lines);
  }

  async ask<T>(command: 'count' | 'reset'): Promise<T> {
    this.child.stdin.write(`${command}\n`);
    return JSON.parse(String((await this.lines.next()).value)) as T;
  }

  close(): void {
    this.child.stdin.end();
  }
}

/** `clients` concurrent POST loops for `seconds`; requests per second answered 200. */
async function reference(port: number, keepAlive: boolean, seconds: number): Promise<number> {
  const agent = new Agent({ keepAlive, maxSockets: CLIENTS });
  const body = JSON.stringify({
    id: 'x'.repeat(36),
    type: 'request.approved',
    data: { a: 'b'.repeat(200) },
  });
  const end = Date.now() + seconds * 1000;
  let done = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/reference',
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) done += 1;
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) await one();
    }),
  );
  agent.destroy();
  return done / ((Date.now() - started) / 1000);
}

/**
 * Wall time of each step of the drain, summed over its calls (they overlap: the claims and
 * records run while sends are in flight, and `one call` adds up 64 concurrent calls).
 */
function timePhases(worker: WebhookDeliveryWorker): { report(): string } {
  const totals = new Map<string, number>();
  const wrap = (target: Record<string, unknown>, name: string, label: string) => {
    const original = target[name] as (...args: unknown[]) => Promise<unknown>;
    target[name] = async (...args: unknown[]) => {
      const started = process.hrtime.bigint();
      try {
        return await original.apply(target, args);
      } finally {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        totals.set(label, (totals.get(label) ?? 0) + ms);
      }
    };
  };
  const internals = worker as unknown as Record<string, Record<string, unknown>>;
  wrap(internals['deliveries'], 'claim', 'claim');
  wrap(internals['deliveries'], 'record', 'record');
  wrap(internals['endpoints'], 'byIds', 'endpoints');
  wrap(internals['http'], 'post', 'one call (sum over calls)');
  return {
    report: () => {
      const text = [...totals].map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
      totals.clear();
      return text;
    },
  };
}

async function api<T>(base: string, method: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function main(): Promise<void> {
  const dbName = `bench_webhooks_${Date.now()}`;
  await adminQuery(`CREATE DATABASE ${dbName}`);
  const url = new URL(stackUrl());
  url.pathname = `/${dbName}`;
  const receiver = await Receiver.start();
  const config = loadCertsvcConfig({
    CERTSVC_DATABASE_URL: url.toString(),
    CERTSVC_JWT_SECRET: 'bench-secret-for-the-webhook-benchmark-000000000',
    CERTSVC_CA_KEY_ENC_KEY: '07'.repeat(32),
    CERTSVC_LOG_LEVEL: 'warn',
    CERTSVC_LOCAL_ADMIN_EMAIL: ADMIN.email,
    CERTSVC_LOCAL_ADMIN_PASSWORD: ADMIN.password,
    CERTSVC_WEBHOOKS_ENABLED: 'true',
    CERTSVC_WEBHOOK_ENC_KEY: '08'.repeat(32),
    CERTSVC_WEBHOOK_EGRESS_ALLOW_HTTP: 'true',
    CERTSVC_WEBHOOK_EGRESS_ALLOW_LOCAL_DIAL: 'true',
    CERTSVC_WEBHOOK_EGRESS_ALLOWLIST: '127.0.0.1/32',
  });
  const app = await createCertificateApp(
    {
      config,
      logger: createCertsvcLogger(config),
      metrics: new CertsvcMetrics({ processMetrics: false }),
    },
    { extraImports: [WebhookDeliveryModule] },
  );
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const db = app.get(DataSource);
  const worker = app.get(WebhookDeliveryWorker);
  const phases = timePhases(worker);
  try {
    console.log(
      `node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ' ',
        )}; ${EVENTS} events x ${ENDPOINTS} endpoints per round, ${ROUNDS} rounds; references: ${CLIENTS} clients x ${SECONDS} s`,
    );
    const token = (
      await api<{ access_token: string }>(base, 'POST', '/api/v1/auth/local/login', ADMIN)
    ).access_token;
    for (let i = 0; i < ENDPOINTS; i += 1) {
      await api(
        base,
        'POST',
        '/api/v1/admin/webhooks',
        { url: `http://127.0.0.1:${receiver.port}/hook-${i}` },
        token,
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const outbox: number[] = [];
    const keepAlive: number[] = [];
    const fresh: number[] = [];
    const enqueueMs: number[] = [];
    await reference(receiver.port, true, 1); // warm-up
    for (let round = 0; round < ROUNDS; round += 1) {
      keepAlive.push(await reference(receiver.port, true, SECONDS));
      fresh.push(await reference(receiver.port, false, SECONDS));
      await db.query(`TRUNCATE webhook_deliveries`);
      const seeded = Date.now();
      for (let i = 0; i < EVENTS; i += 1000) {
        await db.transaction((em) =>
          enqueueWebhookEvents(
            em,
            Array.from({ length: Math.min(1000, EVENTS - i) }, (_, j) => ({
              type: 'request.approved' as const,
              data: {
                request_id: `r-${round}-${i + j}`,
                status: 'issued',
                decided_by: ADMIN.email,
              },
            })),
          ),
        );
      }
      enqueueMs.push(Date.now() - seeded);
      await receiver.ask('reset');
      const rows = EVENTS * ENDPOINTS;
      const started = process.hrtime.bigint();
      for (;;) {
        await worker.drain();
        const [{ n }] = (await db.query(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`,
        )) as { n: number }[];
        if (n === 0) break;
      }
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const [{ delivered }] = (await db.query(
        `SELECT count(*)::int AS delivered FROM webhook_deliveries WHERE status = 'delivered'`,
      )) as { delivered: number }[];
      const seen = await receiver.ask<{ requests: number; deliveries: number }>('count');
      console.log(`  where the drain's time went (ms, summed): ${phases.report()}`);
      outbox.push(delivered / seconds);
      console.log(
        `round ${round + 1}: reference keep-alive ${keepAlive[round].toFixed(0)}/s, reference new connection per request ${fresh[round].toFixed(0)}/s, outbox ${outbox[round].toFixed(0)} deliveries/s (${delivered} of ${rows} delivered in ${seconds.toFixed(1)} s; receiver saw ${seen.requests} requests, ${seen.deliveries} distinct deliveries; enqueue ${enqueueMs[round]} ms), load ${loadavg()[0].toFixed(1)}`,
      );
    }
    console.log(
      `median: reference keep-alive ${median(keepAlive).toFixed(0)}/s, reference new connection ${median(fresh).toFixed(0)}/s, outbox ${median(outbox).toFixed(0)} deliveries/s; target >= 1000 deliveries/s`,
    );
  } finally {
    receiver.close();
    await app.close();
    if (process.env['BENCH_KEEP_DB'] !== '1') {
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
