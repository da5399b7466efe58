import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { buildLoggerOptions } from '@platform/logging';
import type { CertsvcConfig } from '../config/certsvc-config';
import { RequestContext } from '../request-context/request-context';

export type CertsvcLogger = Logger;

/** Injection token of the process logger. */
export const CERTSVC_LOGGER = Symbol('CERTSVC_LOGGER');

/**
 * The process logger: JSON, one object per line on stdout (production) or coloured text
 * (CERTSVC_DEV_MODE). Every line written while a request is handled carries `request_id`.
 * `destination` replaces stdout (tests capture lines with it; always JSON then).
 */
export function createCertsvcLogger(
  config: Pick<CertsvcConfig, 'logLevel' | 'devMode'>,
  destination?: DestinationStream,
): CertsvcLogger {
  const options = {
    ...buildLoggerOptions({ level: config.logLevel, json: true }),
    mixin: () => {
      const context = RequestContext.current();
      return context ? { request_id: context.requestId } : {};
    },
  };
  if (destination) return pino(options, destination);
  if (config.devMode) {
    return pino(
      options,
      pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', singleLine: true, sync: true }),
    );
  }
  return pino(options, pino.destination({ dest: 1, sync: false }));
}
