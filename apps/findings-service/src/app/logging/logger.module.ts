import { DynamicModule, Module } from '@nestjs/common';
import { buildLoggerOptions, resolveRequestId } from '@platform/logging';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage } from 'node:http';
import { FindingsConfig } from '../config/findings-config';

const QUIET_PATHS = new Set(['/health']);

/** nestjs-pino with the shared options: level, JSON in production, rotated files, redaction. */
@Module({})
export class FindingsLoggerModule {
  static forRoot(config: FindingsConfig): DynamicModule {
    const component = config.role === 'api' ? 'backend' : 'worker';
    const options = buildLoggerOptions({
      level: config.logLevel,
      json: config.production,
      fileSink: config.logFileSinkEnabled
        ? { directory: config.logDir, fileName: `findings-${component}.log` }
        : undefined,
      base: { component },
    });
    return {
      module: FindingsLoggerModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            ...options,
            // Fastify assigns the id (from X-Request-ID when sane) and echoes it; reuse it.
            genReqId: (req: IncomingMessage) => req.id ?? resolveRequestId(req.headers),
            autoLogging: { ignore: (req: IncomingMessage) => QUIET_PATHS.has(req.url ?? '') },
            customLogLevel: (_req, res, err) =>
              err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
          },
        }),
      ],
      exports: [LoggerModule],
    };
  }
}
