import { createProcessLogger, type ProcessLogger } from '@platform/logging';
import { traceLogFields } from '@platform/tracing';
import type { DestinationStream } from 'pino';
import { FindingsConfig } from '../config/findings-config';

/**
 * The process logger: level, JSON in production, rotated files, `component` on every line and
 * `trace_id`/`span_id` on lines written inside a span (a request's handler, a job).
 */
export function createFindingsLogger(
  config: FindingsConfig,
  destination?: DestinationStream,
): ProcessLogger {
  const component = config.role === 'api' ? 'backend' : 'worker';
  return createProcessLogger(
    {
      level: config.logLevel,
      json: config.production,
      fileSink: config.logFileSinkEnabled
        ? { directory: config.logDir, fileName: `findings-${component}.log` }
        : undefined,
      base: { component },
      mixin: traceLogFields,
    },
    destination,
  );
}
