import { createProcessLogger, type ProcessLogger } from '@platform/logging';
import { traceLogFields } from '@platform/tracing';
import type { DestinationStream } from 'pino';
import type { CertsvcConfig } from '../config/certsvc-config';

/**
 * The process logger: JSON, one object per line on stdout, or coloured text in developer
 * mode (CERTSVC_DEV_MODE); `trace_id`/`span_id` on lines written inside a span (a request's
 * handler, an approval, a periodic task). `destination` replaces stdout (tests capture lines;
 * always JSON).
 */
export function createCertsvcLogger(
  config: Pick<CertsvcConfig, 'logLevel' | 'devMode'>,
  destination?: DestinationStream,
): ProcessLogger {
  return createProcessLogger(
    { level: config.logLevel, json: !config.devMode, mixin: traceLogFields },
    destination,
  );
}
