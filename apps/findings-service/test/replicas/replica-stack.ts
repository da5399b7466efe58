import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { FIXTURE_NODE_PATH } from '@platform/plugin-protocol/testing';
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
import { RUNNER_TOKEN, startRunnerProcess } from '../catalog-plugins/support/catalog-plugin-lab';
import { ADMIN_EMAIL, ADMIN_PASSWORD, testDatabase, type TestApp } from '../support/test-app';

/** An API replica: the real entry point as a child process. */
export interface ApiReplica {
  name: string;
  process: ServiceProcess;
  /**
   * The support's view of a test app (`t.url` only): its helpers send to this replica.
   * Helpers that reach into the app (`t.app`, `t.config`) must not be given it.
   */
  t: TestApp;
}

export interface WorkerReplica {
  name: string;
  process: ServiceProcess;
}

export interface ReplicaStack {
  db: TestDatabase;
  apis: ApiReplica[];
  workers: WorkerReplica[];
  runner: ServiceProcess;
  /** The environment every process got (ports aside). */
  env: Record<string, string>;
  /** Every process still running stopped, the database and the storage removed. */
  close(): Promise<void>;
}

/**
 * The findings service as a deployment with replicas runs it: `apiCount` API and `workerCount`
 * worker processes (the TypeScript entry points `npm run up` runs built) with one database, one
 * Redis (one queue and rate-limit prefix), one report storage directory and one plugin runner.
 * Every process gets the same environment (plus its own ports), as one Helm release sets it.
 */
export async function startReplicaStack(options: {
  apiCount: number;
  workerCount: number;
  env: Record<string, string>;
}): Promise<ReplicaStack> {
  const storage = mkdtempSync(join(tmpdir(), 'findings-replicas-'));
  const db = await testDatabase();
  const apis: ApiReplica[] = [];
  const workers: WorkerReplica[] = [];
  let runner: ServiceProcess | undefined;
  let env: Record<string, string> = {};
  const close = async () => {
    await Promise.all([...apis, ...workers].map((r) => r.process.kill()));
    await runner?.stop();
    await db.drop();
    rmSync(storage, { recursive: true, force: true });
  };
  try {
    const started = await startRunnerProcess({
      PLUGIN_NATIVE_NODE_PATH: FIXTURE_NODE_PATH,
      PLUGIN_NATIVE_HEALTH_INTERVAL_MS: '0',
      PLUGIN_NATIVE_RATE_LIMIT_PER_MINUTE: '600000',
    });
    runner = started.runner;
    env = {
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      HOST: '127.0.0.1',
      JWT_SECRET: randomBytes(32).toString('hex'),
      PLUGIN_SECRETS_KEY: randomBytes(32).toString('base64url'),
      LOCAL_ADMIN_EMAIL: ADMIN_EMAIL,
      LOCAL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      COOKIE_SECURE: 'false',
      LOG_LEVEL: 'info',
      LOG_FILE_SINK_ENABLED: 'false',
      QUEUE_PREFIX: uniqueQueuePrefix(),
      RATE_LIMIT_KEY_PREFIX: `${uniqueQueuePrefix()}:rl:`,
      REPORT_STORAGE_DIR: storage,
      PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
      PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
      PUBLIC_WEB_URL: 'https://findings.example/',
      ...options.env,
    };
    for (let i = 0; i < options.apiCount; i += 1) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const process = startServiceProcess({
        entry: 'apps/findings-service/src/main.ts',
        url,
        env: { ...env, PORT: String(port), METRICS_PORT: String(await freePort()) },
      });
      apis.push({ name: `api-${i + 1}`, process, t: { url } as TestApp });
    }
    for (let i = 0; i < options.workerCount; i += 1) {
      const process = startServiceProcess({
        entry: 'apps/findings-service/src/worker.ts',
        env: { ...env, METRICS_PORT: String(await freePort()) },
      });
      workers.push({ name: `worker-${i + 1}`, process });
    }
    await Promise.all(apis.map((a) => waitForHealthy(a.process, 150_000)));
    await Promise.all(workers.map((w) => workerReady(w.process)));
  } catch (error) {
    await close();
    throw error;
  }
  return { db, apis, workers, runner, env, close };
}

/** The worker's periodic-task line (logged once its module graph has started). */
function workerReady(worker: ServiceProcess): Promise<void> {
  return waitFor(
    () => {
      if (!worker.running()) throw new WaitAborted(`worker exited:\n${worker.output()}`);
      if (!worker.output().includes('periodic tasks, run by the leading worker')) {
        throw new Error('not started yet');
      }
    },
    { timeoutMs: 150_000, intervalMs: 200, what: 'the worker to start' },
  );
}
