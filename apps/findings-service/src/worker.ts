import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestLogger } from '@platform/logging';
import { loadFindingsConfig } from './app/config/findings-config';
import { FindingsMetrics } from './app/metrics/findings-metrics';
import { WorkerModule } from './worker/worker.module';

/** Worker entry point: waits for migrations, serves its metrics, runs queue consumers. */
async function main(): Promise<void> {
  const config = loadFindingsConfig(process.env, 'worker');
  const app = await NestFactory.createApplicationContext(
    WorkerModule.forRoot(config, new FindingsMetrics()),
    { bufferLogs: true, abortOnError: false },
  );
  app.useLogger(app.get(NestLogger));
  app.enableShutdownHooks();
}

main().catch((err: unknown) => {
  process.stderr.write(
    `findings worker failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
