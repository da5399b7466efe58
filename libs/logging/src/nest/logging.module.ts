import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule, PinoLogger } from 'nestjs-pino';
import { __resetOutOfContextForTests as forgetEarlierProcessLogger } from 'nestjs-pino/PinoLogger';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';
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

function pinoHttpOptions(logger: ProcessLogger, requests: RequestLogLines | undefined): Options {
  const common: Options = {
    logger,
    genReqId: requestIdOf,
    // pino-http wraps the serializers it is given: the shared ones keep SQL values and the
    // secrets of request URLs (a single sign-on callback's code and state) out.
    serializers: { err: serializeError, req: serializeRequest },
  };
  if (requests?.kind !== 'completed-line') {
    return {
      ...common,
      autoLogging: false,
      quietReqLogger: true,
      customAttributeKeys: { reqId: 'request_id' },
    };
  }
  const quiet = new Set(requests.quietPaths);
  return {
    ...common,
    autoLogging: { ignore: (req: IncomingMessage) => quiet.has(req.url ?? '') },
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
  };
}

/**
 * nestjs-pino over the process logger: `NestLogger` for Nest itself and for the services'
 * `new Logger('<Context>')` fields (`app.useLogger(app.get(NestLogger))`; the services inject
 * no `PinoLogger`, docs/architecture.md, Logging), request lines as chosen.
 */
@Module({})
export class LoggingModule {
  static forRoot(options: LoggingModuleOptions): DynamicModule {
    // nestjs-pino keeps the logger for lines outside a request in a module variable, set by
    // the first PinoLogger of the process: a process that builds a second app (tests: an API
    // and an in-process worker) points it at the newest process logger at once.
    forgetEarlierProcessLogger();
    new PinoLogger({ pinoHttp: { logger: options.logger } });
    return {
      module: LoggingModule,
      global: true,
      imports: [
        LoggerModule.forRoot({ pinoHttp: pinoHttpOptions(options.logger, options.requests) }),
      ],
      providers: [NestLogger],
      exports: [NestLogger],
    };
  }
}
