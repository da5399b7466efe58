import { buildLoggerOptions } from '@platform/logging';
import pino, { type Logger } from 'pino';
import type { PluginRunnerConfig } from '../config/plugin-runner.config';
import { COMPONENT } from '../runner-identity';

/**
 * The runner's one pino logger: JSON on stdout when `APP_ENV=production`, pretty text
 * otherwise, plus rotated files when `LOG_FILE_SINK_ENABLED`.
 */
export function createRunnerLogger(config: PluginRunnerConfig): Logger {
  const options = buildLoggerOptions({
    level: config.log.level,
    json: config.log.json,
    base: { component: COMPONENT },
    fileSink: config.log.fileDirectory
      ? { directory: config.log.fileDirectory, fileName: `${COMPONENT}.log` }
      : undefined,
  });
  return pino(options);
}
