/**
 * Runner API benchmark (not part of `npm test`). One command from the repository root:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/runner-api/runner-api-bench.ts
 *
 * Boots a real plugin runner in this process (every listener on an ephemeral loopback port,
 * the runner API with its token) and loads the native test channel
 * (@platform/plugin-protocol/testing, a Node program speaking gRPC on a unix socket) through
 * the findings service's PluginRunnerClient. Then, each figure next to an in-run reference
 * measured in the same process against the same runner / the same program:
 *
 *   1. one delivery through the runner API (client → Invoke stream → runner → two secret host
 *      calls streamed back and answered by the client's ports → Deliver on the plugin's socket
 *      → result), sequential: p50/p95 and calls/s — against a bare gRPC round trip to the same
 *      runner (`grpc.health.v1.Health/Check`), the transport floor;
 *   2. the same deliveries on a NativePluginHost called directly in this process (secrets from
 *      memory, no runner API): what the API and its host-call stream add;
 *   3. BENCH_CONCURRENCY (default 8) deliveries in flight through the API: calls/s.
 *
 * Env: BENCH_CALLS (default 2000 per series), BENCH_CONCURRENCY.
 */
import 'reflect-metadata';
import { credentials, type Client, type ServiceError } from '@grpc/grpc-js';
import { RUNNER_SERVICE_NAME, loadHealthService } from '@platform/plugin-protocol';
import {
  FIXTURE_NODE_PATH,
  buildNativeChannelFixture,
  publisherKey,
  signedFixture,
} from '@platform/plugin-protocol/testing';
import type { PluginManifest } from '@platform/plugin-sdk';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { NOT_CONFIGURED_PORTS } from '../../../apps/findings-service/src/modules/plugin-runner-client/host-call-ports';
import {
  PluginRunnerClient,
  type PluginInvocation,
} from '../../../apps/findings-service/src/modules/plugin-runner-client/plugin-runner.client';
import { loadPluginRunnerConfig } from '../../../apps/plugin-runner/src/app/config/plugin-runner.config';
import { startPluginRunner } from '../../../apps/plugin-runner/src/app/runner';
import { DEFAULT_NATIVE_LIMITS } from '../../../apps/plugin-runner/src/native/native-limits';
import { NativePluginHost } from '../../../apps/plugin-runner/src/native/native-plugin-host';
import type { HostCallBroker } from '../../../apps/plugin-runner/src/plugin-host/plugin-host';

const CALLS = Number(process.env['BENCH_CALLS'] ?? 2000);
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 8);
const TOKEN = 'bench-runner-token-0123456789abcdef0123456789';
const PROJECT = '33333333-3333-4333-8333-333333333333';

interface HealthStub extends Client {
  Check(
    request: { service: string },
    callback: (error: ServiceError | null, response?: { status: string }) => void,
  ): void;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function series(
  name: string,
  calls: number,
  one: (i: number) => Promise<void>,
): Promise<{ p50: number; p95: number; perSecond: number }> {
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < calls; i += 1) {
    const t0 = performance.now();
    await one(i);
    times.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const result = {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    perSecond: calls / seconds,
  };
  console.log(
    `${name.padEnd(44)} p50 ${result.p50.toFixed(3)} ms  p95 ${result.p95.toFixed(3)} ms  ${result.perSecond.toFixed(0)} calls/s`,
  );
  return result;
}

async function main(): Promise<void> {
  console.log(
    `runner API bench: ${CALLS} calls per series, concurrency ${CONCURRENCY}; ` +
      `${cpus().length} CPUs, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  const runner = await startPluginRunner(
    loadPluginRunnerConfig({
      PLUGIN_RUNNER_HOST: '127.0.0.1',
      PLUGIN_RUNNER_PORT: '0',
      PLUGIN_RUNNER_GRPC_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: '0',
      LOG_LEVEL: 'error',
      APP_ENV: 'production',
      LOG_FILE_SINK_ENABLED: 'false',
      PLUGIN_RUNNER_TOKEN: TOKEN,
      PLUGIN_NATIVE_NODE_PATH: FIXTURE_NODE_PATH,
      PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE: '1000000',
      PLUGIN_NATIVE_HEALTH_INTERVAL_MS: '0',
    }),
  );
  const secrets = {
    getSecret: async () => 'installation-secret-value',
    getProjectSecret: async () => 'project-secret-value',
  };
  const client = new PluginRunnerClient(
    { target: `127.0.0.1:${runner.grpcPort}`, token: TOKEN, timeoutMs: 30_000 },
    { ...NOT_CONFIGURED_PORTS, secrets },
  );
  const Health = loadHealthService();
  const health = new Health(
    `127.0.0.1:${runner.grpcPort}`,
    credentials.createInsecure(),
  ) as unknown as HealthStub;
  const publisher = publisherKey();
  const fixture = signedFixture(buildNativeChannelFixture('normal'), publisher);
  const direct = new NativePluginHost({
    limits: {
      ...DEFAULT_NATIVE_LIMITS,
      nodePath: FIXTURE_NODE_PATH,
      ratePerMinute: 1_000_000,
      healthIntervalMs: 0,
    },
    broker: {
      ...secrets,
      sendEmail: () => Promise.reject(new Error('not configured')),
      isCveKnown: () => Promise.reject(new Error('not configured')),
    } satisfies HostCallBroker,
    logger: pino({ level: 'error' }),
  });
  try {
    await client.load({
      pluginId: 'bench-chat',
      version: '1.0.0',
      versionDigest: fixture.digest,
      runtime: 'native',
      manifest: fixture.manifestBytes,
      signature: fixture.signature,
      source: { id: 'bench', publicKey: publisher.publicKeyPem, allowsNative: true },
      artifact: fixture.artifact,
      permittedHosts: [],
    });
    await direct.load({
      pluginId: 'bench-chat-direct',
      manifest: fixture.manifest as unknown as PluginManifest,
      versionDigest: fixture.digest,
      artifact: fixture.artifact,
      permittedHosts: [],
      source: { signed: true, allowsNative: true },
    });
    const invocation = (key: string): PluginInvocation => ({
      context: {
        pluginId: 'bench-chat',
        versionDigest: fixture.digest,
        projectId: PROJECT,
        eventId: key,
      },
      capability: 'notification_channel',
      operation: 'deliver',
      payload: { event: { kind: 'new_findings', count: 3 } },
      settings: { chat_id: '42' },
      idempotencyKey: key,
    });
    const deliver = async (key: string) => {
      const result = await client.invoke(invocation(key));
      if (!result.ok) throw new Error(`delivery failed: ${JSON.stringify(result.error)}`);
    };
    const check = () =>
      new Promise<void>((resolve, reject) =>
        health.Check({ service: RUNNER_SERVICE_NAME }, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
    const deliverDirect = async (key: string) => {
      const result = await direct.invoke({
        pluginId: 'bench-chat-direct',
        versionDigest: fixture.digest,
        projectId: PROJECT,
        eventId: key,
        capability: 'notification_channel',
        operation: 'deliver',
        payload: { event: { kind: 'new_findings', count: 3 } },
        settings: { chat_id: '42' },
        idempotencyKey: key,
      });
      if (!result.ok) throw new Error(`direct delivery failed: ${JSON.stringify(result.error)}`);
    };

    // Warm-up of every path.
    for (let i = 0; i < 100; i += 1) {
      await deliver(`warm-${i}`);
      await check();
      await deliverDirect(`warm-${i}`);
    }

    const floor = await series('reference: gRPC Health/Check to the runner', CALLS, () => check());
    const hostOnly = await series('reference: NativePluginHost.invoke, in-process', CALLS, (i) =>
      deliverDirect(`direct-${i}`),
    );
    const api = await series('runner API: Invoke deliver (2 host calls)', CALLS, (i) =>
      deliver(`api-${i}`),
    );
    console.log(
      `ratio p50: API / transport floor = ${(api.p50 / floor.p50).toFixed(1)}, ` +
        `API / direct host = ${(api.p50 / hostOnly.p50).toFixed(2)}`,
    );

    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < CALLS) {
          const i = next;
          next += 1;
          await deliver(`parallel-${i}`);
        }
      }),
    );
    const perSecond = CALLS / ((performance.now() - started) / 1000);
    console.log(
      `runner API: ${CONCURRENCY} deliveries in flight`.padEnd(44) +
        ` ${perSecond.toFixed(0)} calls/s (sequential: ${api.perSecond.toFixed(0)} calls/s)`,
    );
  } finally {
    health.close();
    client.close();
    await direct.close();
    await runner.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
