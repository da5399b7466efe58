import type { ModuleMetadata } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { runMigrationsUnderLock } from '@platform/database';
import { clientErrorHandler, installJsonBodyParser } from '@platform/http';
import { resolveRequestId } from '@platform/logging';
import { installHttpMetrics } from '@platform/metrics';
import { AppModule } from './app.module';
import { installRequestContext } from './request-context/request-context.hooks';
import { CERTSVC_MIGRATION_LOCK } from '../database/data-source';
import { installAccessLog } from './logging/access-log';
import { NestLoggerAdapter } from './logging/nest-logger.adapter';
import { installContentTypeEnforcement } from './metrics/content-type.hook';
import { mountSwagger } from './openapi/openapi-document';
import type { CertsvcRuntime } from './core.module';

export interface CreateAppOptions {
  runtime: CertsvcRuntime;
  /** Apply pending migrations under the advisory lock before start-up tasks (default true). */
  migrate?: boolean;
  extraImports?: ModuleMetadata['imports'];
}

const BODY_LIMIT_BYTES = 1024 * 1024;

/** The Fastify transport with the service's hooks; shared by `createCertificateApp` and OpenAPI. */
export function createAdapter(runtime: CertsvcRuntime): FastifyAdapter {
  const { config, logger, metrics } = runtime;
  const adapter = new FastifyAdapter({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: (req: IncomingMessage) => resolveRequestId(req.headers),
    clientErrorHandler: clientErrorHandler(({ code, message }) => ({
      code: code === 'bad_request' ? 'invalid_request' : code,
      message,
    })),
  });
  const fastify = adapter.getInstance();
  // Keeps the exact JSON body (`request.rawBody`): enroll source-auth verifies a signature
  // over it. At the `observe` step a mislabelled body is still read as JSON (and counted).
  installJsonBodyParser(fastify, {
    bodyLimit: BODY_LIMIT_BYTES,
    keepRawBody: true,
    otherMediaTypes: config.contentTypeEnforcement === 'observe' ? 'parse-as-json' : 'refuse',
  });
  installRequestContext(fastify);
  installHttpMetrics(fastify, metrics.http);
  installContentTypeEnforcement(fastify, metrics, config.contentTypeEnforcement);
  installAccessLog(fastify, logger, { devMode: config.devMode });
  return adapter;
}

/**
 * The configured, initialised (not yet listening) API: hooks, Swagger at
 * `/swagger/`, migrations applied, start-up tasks (local admin) run.
 */
export async function createCertificateApp(
  options: CreateAppOptions,
): Promise<NestFastifyApplication> {
  const { runtime } = options;
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(runtime, options.extraImports),
    createAdapter(runtime),
    {
      logger: new NestLoggerAdapter(runtime.logger),
      abortOnError: false,
      bodyParser: false,
    },
  );
  mountSwagger(app);
  if (options.migrate !== false) {
    await runMigrationsUnderLock(app.get(DataSource), {
      lockKey: CERTSVC_MIGRATION_LOCK,
      waitSeconds: runtime.config.migrationLockWaitSeconds,
      logger: { log: (m) => runtime.logger.info(m), warn: (m) => runtime.logger.warn(m) },
    });
  }
  await app.init();
  return app;
}
