import { Module, type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import type { IncomingMessage } from 'node:http';
import { ServingStatusBoard } from '../grpc/serving-status-board';
import { HealthController } from './health.controller';
import { VersionController } from './version.controller';

/** The runner's small HTTP surface: `/health` and `/version`. */
@Module({})
export class PluginRunnerHttpModule {
  static register(board: ServingStatusBoard, logger: Logger): DynamicModule {
    return {
      module: PluginRunnerHttpModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            logger,
            // Request ids come from Fastify (X-Request-ID when sane, else a UUID).
            // Probes hit /health every few seconds: keep them out of the access log.
            autoLogging: { ignore: (req) => requestPath(req) === '/health' },
            serializers: {
              req: (req: { id: string; method: string; url: string }) => ({
                id: req.id,
                method: req.method,
                url: req.url,
              }),
              res: (res: { statusCode: number }) => ({ status: res.statusCode }),
            },
          },
        }),
      ],
      controllers: [HealthController, VersionController],
      providers: [{ provide: ServingStatusBoard, useValue: board }],
    };
  }
}

/** Middleware under Fastify sees a prefix-stripped `url`; `originalUrl` keeps the full path. */
function requestPath(req: IncomingMessage & { originalUrl?: string }): string {
  return (req.originalUrl ?? req.url ?? '').split('?')[0];
}
