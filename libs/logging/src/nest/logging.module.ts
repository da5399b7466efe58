import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule, PARAMS_PROVIDER_TOKEN, PinoLogger } from 'nestjs-pino';
import { __resetOutOfContextForTests as forgetEarlierProcessLogger } from 'nestjs-pino/PinoLogger';
import { Store, storage } from 'nestjs-pino/storage';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp, type Options } from 'pino-http';
import { serializeError, serializeRequest } from '../logger-options';
import { resolveRequestId } from '../request-id';
import { NestLogger } from './nest-logger';
import type { ProcessLogger } from './process-logger';

/**
 * How HTTP requests appear in the log:
 * - `completed-line`: pino-http writes one `request completed` line per request (level by
 *   status, `quietPaths` skipped) and every line of a request carries the request as `req`;
 * - `service-line`: the service writes its own access line; every line of a request carries
 *   `request_id` only.
 */
export type RequestLogLines =
  { kind: 'completed-line'; quietPaths: readonly string[] } | { kind: 'service-line' };

export interface LoggingModuleOptions {
  logger: ProcessLogger;
  /** Absent in processes without HTTP (workers). */
  requests?: RequestLogLines;
}

/** Fastify's request id (X-Request-ID when sane), copied onto the raw request by middie. */
function requestIdOf(req: IncomingMessage): string {
  return (req as IncomingMessage & { id?: string }).id ?? resolveRequestId(req.headers);
}

function commonOptions(logger: ProcessLogger): Options {
  return {
    logger,
    genReqId: requestIdOf,
    // pino-http wraps the serializers it is given: the shared ones keep SQL values and the
    // secrets of request URLs (a single sign-on callback's code and state) out.
    serializers: { err: serializeError, req: serializeRequest },
  };
}

function completedLineOptions(
  logger: ProcessLogger,
  requests: Extract<RequestLogLines, { kind: 'completed-line' }>,
): Options {
  const quiet = new Set(requests.quietPaths);
  return {
    ...commonOptions(logger),
    autoLogging: { ignore: (req: IncomingMessage) => quiet.has(req.url ?? '') },
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
  };
}

/** Runs `next` (the rest of a request) with the request's logger as the one Nest's lines use. */
export type RequestLogScope = (requestId: string, next: () => void) => void;

/**
 * `service-line` only (else undefined): the HTTP adapter enters it in an `onRequest` hook, so
 * every line of the request carries `request_id`. The logger is the process logger with
 * pino-http's serializers (the same `err` and `req` output as in `completed-line` mode).
 * pino-http's own middleware is not used there: besides that child it builds a second one bound
 * to the whole serialized request (headers, URL, query, redaction) on every request, which only
 * its `request completed` line reads (docs/benchmarks.md#enroll-request-logger).
 */
export function requestLogScope(options: LoggingModuleOptions): RequestLogScope | undefined {
  if (options.requests?.kind !== 'service-line') return undefined;
  const base = pinoHttp(commonOptions(options.logger)).logger;
  return (requestId, next) => storage.run(new Store(base.child({ request_id: requestId })), next);
}

/**
 * nestjs-pino over the process logger: `NestLogger` for Nest itself and for the services'
 * `new Logger('<Context>')` fields (`app.useLogger(app.get(NestLogger))`; the services inject
 * no `PinoLogger`, docs/architecture.md, Logging), request lines as chosen.
 */
@Module({})
export class LoggingModule {
  static forRoot(options: LoggingModuleOptions): DynamicModule {
    const requests = options.requests;
    // nestjs-pino keeps the logger for lines outside a request in a module variable, set by
    // the first PinoLogger of the process: a process that builds a second app (tests: an API
    // and an in-process worker) points it at the newest process logger at once.
    forgetEarlierProcessLogger();
    new PinoLogger({ pinoHttp: { logger: options.logger } });
    return {
      module: LoggingModule,
      global: true,
      // `completed-line`: pino-http's middleware through nestjs-pino's module. Otherwise its
      // loggers only: `service-line` requests run in `requestLogScope`, workers have none.
      imports:
        requests?.kind === 'completed-line'
          ? [LoggerModule.forRoot({ pinoHttp: completedLineOptions(options.logger, requests) })]
          : [],
      providers:
        requests?.kind === 'completed-line'
          ? [NestLogger]
          : [NestLogger, PinoLogger, { provide: PARAMS_PROVIDER_TOKEN, useValue: {} }],
      exports: [NestLogger],
    };
  }
}
