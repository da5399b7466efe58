import fastifyMultipart from '@fastify/multipart';
import { Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { validationExceptionFactory } from '@platform/errors';
import { createHttpApp } from '@platform/http';
import { FINDINGS_ACCESS } from '../app/access/access.decorators';
import { AppModule } from './app.module';
import { FindingsConfig } from '../app/config/findings-config';
import { ERROR_MESSAGES } from '../app/errors/error-messages';
import { FindingsExceptionFilter } from '../app/errors/exception.filter';
import { installTextBodyParser } from '../modules/scope/scope-target-list';
import { createFindingsLogger } from '../app/logging/findings-logger';
import { FindingsMetrics } from '../app/metrics/findings-metrics';
import { FINDINGS_OPENAPI } from './openapi/openapi-document';
import { startFindingsTracing } from '../app/tracing/findings-tracing';

const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export interface CreateAppOptions {
  /** Build the module graph without instantiating providers (no DB/Redis): OpenAPI export. */
  preview?: boolean;
  /** Additional modules (tests mount probe routes this way). */
  extraModules?: Type<unknown>[];
}

/**
 * The findings API on the shared HTTP bootstrap (not yet listening). Used by main.ts, the e2e
 * tests and the OpenAPI writer. `listen()` runs migrations, starts the metrics listener on
 * METRICS_PORT and seeds the local admin.
 */
export function createFindingsApp(
  config: FindingsConfig,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  const metrics = new FindingsMetrics();
  return createHttpApp({
    module: AppModule.forRoot(config, metrics, options.extraModules),
    errorFilter: FindingsExceptionFilter,
    validationError: validationExceptionFactory,
    // No headers are parsed yet, so the message is the default (English) one.
    transportRefusal: ({ code }) => ({ error: ERROR_MESSAGES[code].en, code }),
    bodyLimitBytes: JSON_BODY_LIMIT_BYTES,
    // Scanner callbacks are signed over their exact bytes (modules/scanner-callbacks).
    jsonBody: { keepRawBody: true },
    logging: {
      logger: createFindingsLogger(config),
      requests: { kind: 'completed-line', quietPaths: ['/health'] },
    },
    metrics: {
      http: metrics.http,
      listener: { registry: metrics.registry, port: config.metricsPort, host: config.host },
    },
    // Report uploads stream their file part (the reports module enforces REPORT_MAX_BYTES);
    // fileSize defaults to bodyLimit (1 MiB): lift it just above the reports ceiling.
    plugins: async (nest) => {
      // The scope filter's target list, one per line (refused on every other route).
      installTextBodyParser(nest.getHttpAdapter().getInstance());
      await nest.register(fastifyMultipart, {
        limits: {
          files: 1,
          fields: 20,
          fieldSize: 64 * 1024,
          parts: 30,
          fileSize: config.reports.maxBytes + 1,
        },
      });
    },
    tracing: startFindingsTracing(config),
    openApi: FINDINGS_OPENAPI,
    routeAccess: FINDINGS_ACCESS,
    preview: options.preview,
  });
}
