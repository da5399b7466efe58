import { ConfigError } from '@platform/config';
import { loadPluginRunnerConfig } from './app/config/plugin-runner.config';
import { startPluginRunner } from './app/runner';

/** Extra time, beyond the gRPC grace period, before a stuck shutdown is cut short. */
const SHUTDOWN_SLACK_MS = 5000;

async function main(): Promise<void> {
  const config = loadPluginRunnerConfig();
  const runner = await startPluginRunner(config);
  const stop = (signal: NodeJS.Signals) => {
    runner.logger.info({ signal }, 'shutdown requested');
    setTimeout(() => {
      runner.logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownGraceMs + SHUTDOWN_SLACK_MS).unref();
    runner.close().then(
      () => process.exit(0),
      (error: unknown) => {
        runner.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError ? error.message : String((error as Error)?.stack ?? error);
  process.stderr.write(`plugin-runner failed to start: ${message}\n`);
  process.exit(1);
});
