import { once } from 'node:events';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { freePort, testRedisUrl, uniqueQueuePrefix } from '@platform/testing';
import {
  addJob,
  createRedisConnection,
  defineJobContract,
  InvalidJobPayloadError,
  QueueUnavailableError,
} from '../src';
import { TcpProxy } from './tcp-proxy';

interface ScanRequested {
  scanId: string;
}

const scanRequested = defineJobContract<ScanRequested>('scan-requested', (data) => {
  const scanId = (data as { scanId?: unknown } | null)?.scanId;
  if (typeof scanId !== 'string') throw new Error('scanId must be a string');
  return { scanId };
});

describe('addJob against real Redis', () => {
  const connections: Redis[] = [];
  const closables: { close(): Promise<void> }[] = [];

  function connection(url: string, role: 'producer' | 'worker') {
    const redis = createRedisConnection(url, { name: `queue-e2e-${role}`, role });
    connections.push(redis);
    return redis;
  }

  function queue(url: string, prefix = uniqueQueuePrefix()) {
    const q = new Queue('scans', { connection: connection(url, 'producer'), prefix });
    q.on('error', () => undefined); // connection errors are expected here; they surface on add
    closables.push(q);
    return q;
  }

  afterEach(async () => {
    await Promise.all(closables.splice(0).map((c) => c.close()));
    connections.splice(0).forEach((redis) => redis.disconnect());
  });

  it('answers QueueUnavailableError within 2 s when Redis is not listening', async () => {
    const closedPort = await freePort();
    const started = Date.now();

    const adding = addJob(queue(`redis://127.0.0.1:${closedPort}`), scanRequested, {
      scanId: 's-1',
    });

    await expect(adding).rejects.toThrow(QueueUnavailableError);
    await expect(adding).rejects.toMatchObject({ code: 'queue_unavailable' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('fails fast when Redis goes away after connecting, and adds nothing later', async () => {
    const url = new URL(testRedisUrl());
    const proxy = new TcpProxy(Number(url.port), await freePort());
    closables.push({ close: () => proxy.stop() });
    await proxy.start();
    const prefix = uniqueQueuePrefix();
    const viaProxy = queue(`redis://127.0.0.1:${proxy.port}`, prefix);
    const proxied = connections[connections.length - 1];
    await addJob(viaProxy, scanRequested, { scanId: 's-1' });

    await proxy.stop();
    const started = Date.now();
    await expect(addJob(viaProxy, scanRequested, { scanId: 's-2' })).rejects.toThrow(
      QueueUnavailableError,
    );
    expect(Date.now() - started).toBeLessThan(2_000);

    await proxy.start();
    if (proxied.status !== 'ready') await once(proxied, 'ready');
    // Anything ioredis kept to resend on reconnect goes out before this, on the same connection.
    await addJob(viaProxy, scanRequested, { scanId: 's-3' });
    const waiting = await queue(testRedisUrl(), prefix).getJobs(['waiting']);
    expect(waiting.map((job) => (job.data as ScanRequested).scanId).sort()).toEqual(['s-1', 's-3']);
    await proxy.stop();
  });

  it('delivers a valid payload to a worker', async () => {
    const prefix = uniqueQueuePrefix();
    const received = new Promise<ScanRequested>((resolve) => {
      const worker = new Worker(
        'scans',
        async (job: Job) => resolve(scanRequested.parse(job.data)),
        { connection: connection(testRedisUrl(), 'worker'), prefix },
      );
      closables.push(worker);
    });

    const id = await addJob(queue(testRedisUrl(), prefix), scanRequested, { scanId: 's-9' });

    expect(id).toEqual(expect.any(String));
    await expect(received).resolves.toEqual({ scanId: 's-9' });
  });

  it('fails an invalid payload once, without retrying it', async () => {
    const prefix = uniqueQueuePrefix();
    const producer = queue(testRedisUrl(), prefix);
    const failed = new Promise<{ attemptsMade: number; error: Error }>((resolve) => {
      const worker = new Worker('scans', async (job: Job) => scanRequested.parse(job.data), {
        connection: connection(testRedisUrl(), 'worker'),
        prefix,
      });
      worker.on('failed', (job, error) =>
        resolve({ attemptsMade: job?.attemptsMade ?? -1, error }),
      );
      closables.push(worker);
    });

    // A producer that bypasses addJob (or an older release) sends a malformed payload.
    await producer.add(scanRequested.name, { scanId: 7 }, { attempts: 3 });

    const { attemptsMade, error } = await failed;
    expect(error).toBeInstanceOf(InvalidJobPayloadError);
    expect(attemptsMade).toBe(1);
  });
});
