import {
  freePort,
  startServiceProcess,
  testRedisUrl,
  uniqueQueuePrefix,
  waitFor,
  WaitAborted,
  waitForHealthy,
  type ServiceProcess,
  type TestDatabase,
} from '@platform/testing';
import { OtlpReceiver } from '@platform/tracing/testing';
import request from 'supertest';
import { LOOPBACK_EGRESS, TEST_WEBHOOK_KEY } from '../webhooks/webhook-app';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  TEST_CA_KEY_ENC_KEY,
  TEST_JWT_SECRET,
  testDatabase,
  type TestApp,
} from '../support/test-app';

/** An API replica: the real entry point as a child process, and a client for its URL. */
export interface ApiReplica {
  name: string;
  process: ServiceProcess;
  url: string;
  /**
   * The fixtures' view of a test app (`t.http` only): they send their requests to this
   * replica. Fixtures that reach into the app (`t.app`, `t.db`) must not be given it.
   */
  t: TestApp;
}

/** A worker replica and the OTLP receiver its spans (one per periodic-task run) go to. */
export interface WorkerReplica {
  name: string;
  process: ServiceProcess;
  traces: OtlpReceiver;
}

export interface ReplicaStack {
  db: TestDatabase;
  apis: ApiReplica[];
  workers: WorkerReplica[];
  /** Every process still running, then the database and the receivers, stopped. */
  close(): Promise<void>;
}

/**
 * The environment every process of the deployment gets (as one Helm release sets it): one
 * database, one Redis with one counter prefix, the same keys; `extra` on top.
 */
function sharedEnv(db: TestDatabase, extra: Record<string, string>): Record<string, string> {
  return {
    CERTSVC_DATABASE_URL: db.url,
    CERTSVC_REDIS_URL: testRedisUrl(),
    CERTSVC_RATE_LIMIT_KEY_PREFIX: `${uniqueQueuePrefix()}:rl:`,
    CERTSVC_HOST: '127.0.0.1',
    CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
    CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
    CERTSVC_LOCAL_ADMIN_EMAIL: ADMIN_EMAIL,
    CERTSVC_LOCAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
    CERTSVC_LOG_LEVEL: 'warn',
    CERTSVC_WEBHOOKS_ENABLED: 'true',
    CERTSVC_WEBHOOK_ENC_KEY: TEST_WEBHOOK_KEY,
    ...LOOPBACK_EGRESS,
    ...extra,
  };
}

/**
 * `apiCount` API and `workerCount` worker processes of the certificate service (its TypeScript
 * entry points, as `npm run up` starts the built ones) on one fresh database. The APIs start
 * together (the migrations run under their advisory lock), then the workers.
 */
export async function startReplicaStack(options: {
  apiCount: number;
  workerCount: number;
  env: Record<string, string>;
}): Promise<ReplicaStack> {
  const db = await testDatabase();
  const env = sharedEnv(db, options.env);
  const apis: ApiReplica[] = [];
  const workers: WorkerReplica[] = [];
  const stack: ReplicaStack = {
    db,
    apis,
    workers,
    close: async () => {
      await Promise.all([...apis, ...workers].map((r) => r.process.kill()));
      await Promise.all(workers.map((w) => w.traces.stop()));
      await db.drop();
    },
  };
  try {
    for (let i = 0; i < options.apiCount; i += 1) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const process = startServiceProcess({
        entry: 'apps/certificate-service/src/main.ts',
        url,
        env: { ...env, CERTSVC_PORT: String(port) },
      });
      apis.push({ name: `api-${i + 1}`, process, url, t: { http: request(url) } as TestApp });
    }
    for (let i = 0; i < options.workerCount; i += 1) {
      const traces = await OtlpReceiver.start();
      const process = startServiceProcess({
        entry: 'apps/certificate-service/src/worker.ts',
        env: {
          ...env,
          // Its start line (`worker ready`) is an info line.
          CERTSVC_LOG_LEVEL: 'info',
          OTEL_EXPORTER_OTLP_ENDPOINT: traces.endpoint,
          // Spans leave every 200 ms (the SDK's default is 5 s).
          OTEL_BSP_SCHEDULE_DELAY: '200',
        },
      });
      workers.push({ name: `worker-${i + 1}`, process, traces });
    }
    await Promise.all(apis.map((a) => waitForHealthy(a.process, 150_000)));
    await Promise.all(workers.map((w) => workerReady(w.process)));
  } catch (error) {
    await stack.close();
    throw error;
  }
  return stack;
}

/** The worker's start line (`certificate-service worker ready`) in its output. */
function workerReady(worker: ServiceProcess): Promise<void> {
  return waitFor(
    () => {
      if (!worker.running()) throw new WaitAborted(`worker exited:\n${worker.output()}`);
      if (!worker.output().includes('worker ready')) throw new Error('not ready yet');
    },
    { timeoutMs: 150_000, intervalMs: 200, what: 'the worker ready line' },
  );
}
