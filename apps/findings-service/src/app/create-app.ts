import fastifyMultipart from '@fastify/multipart';
import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { validationExceptionFactory } from '@platform/errors';
import {
  clientErrorHandler,
  inputPipes,
  installJsonBodyParser,
  installMediaTypeGate,
} from '@platform/http';
import { resolveRequestId } from '@platform/logging';
import { installHttpMetrics } from '@platform/metrics';
import { Logger } from 'nestjs-pino';
import type { IncomingMessage } from 'node:http';
import { AppModule } from './app.module';
import { ERROR_MESSAGES } from './errors/error-messages';
import { FindingsExceptionFilter } from './errors/exception.filter';
import { DataEnvelopeInterceptor } from './http/data-envelope.interceptor';
import { FindingsMetrics } from './metrics/findings-metrics';
import { FindingsConfig } from './config/findings-config';
import { assertEveryRouteDeclaresAccess } from './access/route-inventory';
import { serveOpenApi } from './openapi/openapi-document';

const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export interface CreateAppOptions {
  /** Build the module graph without instantiating providers (no DB/Redis): OpenAPI export. */
  preview?: boolean;
  /** Additional modules (tests mount probe routes this way). */
  extraModules?: Type<unknown>[];
}

/**
 * Builds the configured Fastify Nest application (not yet listening). Used by main.ts, the
 * e2e tests and the OpenAPI writer. `listen()` runs migrations (onModuleInit), starts the
 * metrics listener and seeds the local admin (onApplicationBootstrap).
 */
export async function createFindingsApp(
  config: FindingsConfig,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  const metrics = new FindingsMetrics();
  const adapter = new FastifyAdapter({
    trustProxy: false,
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (req: IncomingMessage) => resolveRequestId(req.headers),
    // No headers are parsed yet, so the message is the default (English) one.
    clientErrorHandler: clientErrorHandler(({ code }) => ({
      error: ERROR_MESSAGES[code].en,
      code,
    })),
  });
  const fastify = adapter.getInstance();
  installJsonBodyParser(fastify, { bodyLimit: JSON_BODY_LIMIT_BYTES });
  installHttpMetrics(fastify, metrics.http);
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('X-Request-ID', request.id);
  });
  installMediaTypeGate(fastify);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, metrics, options.extraModules),
    adapter,
    {
      bodyParser: false,
      bufferLogs: !options.preview,
      preview: options.preview,
      abortOnError: false,
    },
  );
  if (!options.preview) app.useLogger(app.get(Logger));
  // Report uploads stream their file part (the reports module enforces REPORT_MAX_BYTES).
  await app.register(fastifyMultipart, {
    // fileSize defaults to bodyLimit (1 MiB): lift it just above the reports ceiling.
    limits: {
      files: 1,
      fields: 20,
      fieldSize: 64 * 1024,
      parts: 30,
      fileSize: config.reports.maxBytes + 1,
    },
  });
  app.useGlobalFilters(new FindingsExceptionFilter());
  app.useGlobalPipes(...inputPipes(validationExceptionFactory));
  app.useGlobalInterceptors(new DataEnvelopeInterceptor());
  app.enableShutdownHooks();
  assertEveryRouteDeclaresAccess(app);
  if (!options.preview) serveOpenApi(app);
  return app;
}
