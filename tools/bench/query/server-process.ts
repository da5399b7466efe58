/**
 * The query bench's findings API in a process of its own (api-under-test.ts starts it): the
 * same bootstrap as apps/findings-service/src/main.ts — `loadFindingsConfig(process.env)`,
 * `createFindingsApp`, listen — with the environment the bench hands it (APP_ENV and NODE_ENV
 * `production`, the access log at `info` as JSON on stdout, which the bench points at
 * BENCH_SERVER_LOG, /dev/null by default). Talks to the bench over the IPC channel: sends
 * `{ port }` once listening; answers `{ sql: true }` with the statements this process sent
 * since the last ask (node-pg clients counted, as bench-session.ts does in-process); closes
 * and exits when the channel closes.
 */
import 'reflect-metadata';
import { createFindingsApp } from '../../../apps/findings-service/src/api/create-app';
import { loadFindingsConfig } from '../../../apps/findings-service/src/app/config/findings-config';
import { sqlCounter, takeSqlCounts } from './bench-session';

async function main(): Promise<void> {
  const app = await createFindingsApp(loadFindingsConfig(process.env, 'api'));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address: unknown = app.getHttpServer().address();
  const port =
    typeof address === 'object' && address !== null ? (address as { port: number }).port : 0;
  process.on('message', (message: { sql?: boolean }) => {
    if (message.sql) process.send?.(takeSqlCounts(sqlCounter));
  });
  process.on('disconnect', () => {
    void app.close().then(() => process.exit(0));
  });
  process.send?.({ port });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `query bench server: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
