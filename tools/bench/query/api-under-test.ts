// The findings API the query bench measures: by default in a process of its own
// (server-process.ts), as a browser or the CLI meets it — the bench's HTTP client, its
// JSON.parse of each page and its garbage stay out of the server's event loop and CPU;
// BENCH_API_IN_PROCESS=1 boots it in the bench's process as before, for comparison.
import { fork } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createFindingsApp } from '../../../apps/findings-service/src/api/create-app';
import { loadFindingsConfig } from '../../../apps/findings-service/src/app/config/findings-config';
import { ownCpuSeconds, threadsCpuSeconds } from '../support/process-cpu';
import {
  findingsBenchVars,
  listenOnLoopback,
  type ScratchDatabase,
} from '../support/findings-bench-app';
import { sqlCounter, takeSqlCounts, type SqlCounts } from './bench-session';
import { startHeapAccounting } from './heap-accounting';

const ROOT = join(__dirname, '../../..');

export interface ApiUnderTest {
  /** Which mode runs, printed by the bench. */
  mode: string;
  url: string;
  /** A data source on the bench's database (the API's own in-process). */
  ds: DataSource;
  /** CPU seconds of the API's process (in-process: this process, API and client together). */
  cpuSeconds(): number;
  /** The API process's peak resident memory (VmHWM), e.g. `212 MiB`. */
  peakMemory(): string;
  /** The statements the API sent since the last call. */
  takeSql(): Promise<SqlCounts>;
  close(): Promise<void>;
}

export function startApi(db: ScratchDatabase): Promise<ApiUnderTest> {
  return process.env['BENCH_API_IN_PROCESS'] === '1' ? inProcess(db) : ownProcess(db);
}

async function inProcess(db: ScratchDatabase): Promise<ApiUnderTest> {
  const app = await createFindingsApp(loadFindingsConfig(findingsBenchVars(db), 'api'));
  const url = await listenOnLoopback(app);
  startHeapAccounting();
  return {
    mode: 'API in the bench process (BENCH_API_IN_PROCESS=1; log level error; cpu = API + client)',
    url,
    ds: app.get(DataSource),
    cpuSeconds: ownCpuSeconds,
    peakMemory: () => peakMemoryOf('self'),
    takeSql: () => Promise.resolve(takeSqlCounts(sqlCounter)),
    close: () => app.close(),
  };
}

/**
 * server-process.ts under @swc-node/register with the production environment: APP_ENV and
 * NODE_ENV `production`, the access log at `info` (BENCH_SERVER_LOG_LEVEL) as JSON lines to
 * BENCH_SERVER_LOG (/dev/null), BENCH_SERVER_NODE_ARGS its node flags (e.g.
 * `--max-semi-space-size=16`, `--cpu-prof --cpu-prof-dir=DIR`), BENCH_SERVER_HEAP_PROFILE a
 * sampling heap profile of it, garbage included (heap-profile-summary.ts reads it).
 */
async function ownProcess(db: ScratchDatabase): Promise<ApiUnderTest> {
  const nodeArgs = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  const logPath = process.env['BENCH_SERVER_LOG'] ?? '/dev/null';
  const log = openSync(logPath, 'a');
  const level = process.env['BENCH_SERVER_LOG_LEVEL'] ?? 'info';
  const child = fork(join(__dirname, 'server-process.ts'), [], {
    cwd: ROOT,
    execArgv: [...nodeArgs, '-r', '@swc-node/register'],
    env: {
      ...process.env,
      ...findingsBenchVars(db, { LOG_LEVEL: level }),
      APP_ENV: 'production',
      NODE_ENV: 'production',
      JWT_SECRET: 'query-bench-access-token-secret-0123456789',
      SWC_NODE_PROJECT: 'tsconfig.base.json',
    },
    stdio: ['ignore', log, 'inherit', 'ipc'],
  });
  closeSync(log);
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`query bench server exited ${code}`)));
    child.once('message', (m: { port: number }) => resolve(m.port));
  });
  const ds = new DataSource({ type: 'postgres', url: db.url });
  await ds.initialize();
  const pid = child.pid ?? 0;
  return {
    mode: `API in its own process (pid ${pid}, APP_ENV=production, log ${level} to ${logPath}${nodeArgs.length ? `, node ${nodeArgs.join(' ')}` : ''}; cpu = the server process)`,
    url: `http://127.0.0.1:${port}`,
    ds,
    cpuSeconds: () => threadsCpuSeconds(pid),
    peakMemory: () => peakMemoryOf(String(pid)),
    takeSql: () =>
      new Promise<SqlCounts>((resolve) => {
        child.once('message', (m: SqlCounts) => resolve(m));
        child.send({ sql: true });
      }),
    async close() {
      await ds.destroy();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

function peakMemoryOf(pid: string): string {
  const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb ? `${Math.round(Number(kb) / 1024)} MiB` : '?';
}
