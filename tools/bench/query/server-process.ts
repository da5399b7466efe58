/**
 * The query bench's findings API in a process of its own (api-under-test.ts starts it): the
 * same bootstrap as apps/findings-service/src/main.ts — `loadFindingsConfig(process.env)`,
 * `createFindingsApp`, listen — with the environment the bench hands it (APP_ENV and NODE_ENV
 * `production`, the access log at `info` as JSON on stdout, which the bench points at
 * BENCH_SERVER_LOG, /dev/null by default). Talks to the bench over the IPC channel: sends
 * `{ port }` once listening; answers `{ sql: true }` with the statements this process sent
 * since the last ask (node-pg clients counted, as bench-session.ts does in-process) and its heap
 * allocation and collections (heap-accounting.ts); closes
 * and exits when the channel closes.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createFindingsApp } from '../../../apps/findings-service/src/api/create-app';
import { loadFindingsConfig } from '../../../apps/findings-service/src/app/config/findings-config';
import { sqlCounter, takeSqlCounts } from './bench-session';
import { startHeapAccounting } from './heap-accounting';

async function main(): Promise<void> {
  const app = await createFindingsApp(loadFindingsConfig(process.env, 'api'));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address: unknown = app.getHttpServer().address();
  const port =
    typeof address === 'object' && address !== null ? (address as { port: number }).port : 0;
  process.on('message', (message: { sql?: boolean }) => {
    if (message.sql) process.send?.(takeSqlCounts(sqlCounter));
  });
  const heapProfile = await sampleHeap(process.env['BENCH_SERVER_HEAP_PROFILE']);
  process.on('disconnect', () => {
    void heapProfile()
      .then(() => app.close())
      .then(() => process.exit(0));
  });
  startHeapAccounting();
  process.send?.({ port });
}

/**
 * BENCH_SERVER_HEAP_PROFILE=<file>: V8's sampling heap profiler from here to the end, garbage
 * included (objects freed by either collector stay in the profile; heap-profile-summary.ts
 * reads it). Returns what writes the file; without the variable, nothing is sampled.
 */
async function sampleHeap(file: string | undefined): Promise<() => Promise<void>> {
  if (!file) return () => Promise.resolve();
  const session = new Session();
  session.connect();
  const post = (method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval: 16 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
  };
}

main().catch((error: unknown) => {
  process.stderr.write(
    `query bench server: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
