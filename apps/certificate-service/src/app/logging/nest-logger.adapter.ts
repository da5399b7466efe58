import type { LoggerService } from '@nestjs/common';
import { loggableError } from '@platform/logging';
import type { CertsvcLogger } from './certsvc-logger';

// Nest's start-up chatter (module and route mapping) is useful only when debugging.
const QUIET_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
]);

/** Routes Nest's own logging (and `new Logger(...)` in services) into the pino logger. */
export class NestLoggerAdapter implements LoggerService {
  constructor(private readonly logger: CertsvcLogger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    const level = context && QUIET_CONTEXTS.has(context) ? 'debug' : 'info';
    this.logger[level](fields(context), text(message));
  }

  error(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    const stack =
      message instanceof Error
        ? loggableError(message).stack
        : params.find((p): p is string => typeof p === 'string' && p.includes('\n'));
    this.logger.error({ ...fields(context), ...(stack ? { stack } : {}) }, text(message));
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.logger.warn(fields(contextOf(params)), text(message));
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.logger.debug(fields(contextOf(params)), text(message));
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.logger.trace(fields(contextOf(params)), text(message));
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.logger.fatal(fields(contextOf(params)), text(message));
  }
}

function contextOf(params: unknown[]): string | undefined {
  const last = params[params.length - 1];
  return typeof last === 'string' && !last.includes('\n') ? last : undefined;
}

function fields(context: string | undefined): Record<string, string> {
  return context ? { context } : {};
}

function text(message: unknown): string {
  if (typeof message === 'string') return message;
  if (message instanceof Error) return loggableError(message).message;
  return JSON.stringify(message);
}
