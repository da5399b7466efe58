import { status as GrpcStatus } from '@grpc/grpc-js';
import type { RunningPluginRunner } from '../src/app/runner';
import { check, healthClient, startTestRunner, type HealthClient } from './runner-harness';

describe('plugin runner gRPC health (grpc.health.v1.Health)', () => {
  let runner: RunningPluginRunner;
  let client: HealthClient;

  beforeAll(async () => {
    runner = await startTestRunner();
    client = healthClient(runner.grpcPort);
  });
  afterAll(async () => {
    client.close();
    await runner.close();
  });

  it('Check reports SERVING for the whole process ("") and for "plugin-runner"', async () => {
    expect(await check(client, '')).toEqual({ status: 'SERVING' });
    expect(await check(client, 'plugin-runner')).toEqual({ status: 'SERVING' });
  });

  it('Check of an unknown service fails with NOT_FOUND', async () => {
    const { error } = await check(client, 'no-such-service');
    expect(error?.code).toBe(GrpcStatus.NOT_FOUND);
  });

  it('Watch of an unknown service streams SERVICE_UNKNOWN and stays open', async () => {
    const call = client.Watch({ service: 'not-yet-registered' });
    const first = await new Promise<{ status: string }>((resolve) => call.once('data', resolve));
    expect(first.status).toBe('SERVICE_UNKNOWN');
    call.on('error', () => undefined); // CANCELLED after cancel()
    call.cancel();
  });
});

describe('plugin runner shutdown', () => {
  it('Watch streams SERVING, then NOT_SERVING and ends; /health turns 503 first', async () => {
    const runner = await startTestRunner();
    const client = healthClient(runner.grpcPort);
    try {
      const call = client.Watch({ service: 'plugin-runner' });
      const seen: string[] = [];
      const ended = new Promise<void>((resolve) => {
        call.on('data', (message: { status: string }) => seen.push(message.status));
        call.on('end', resolve);
        call.on('error', () => resolve());
      });
      await new Promise<void>((resolve) => call.once('data', () => resolve()));

      runner.board.enterShutdown();
      const health = await fetch(`http://127.0.0.1:${runner.httpPort}/health`);
      expect(health.status).toBe(503);

      await runner.close();
      await ended;
      expect(seen).toEqual(['SERVING', 'NOT_SERVING']);
      await expect(fetch(`http://127.0.0.1:${runner.httpPort}/health`)).rejects.toThrow();
    } finally {
      client.close();
      await runner.close();
    }
  });
});
