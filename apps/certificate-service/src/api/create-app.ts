import type { ModuleMetadata } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { flattenValidationErrors } from '@platform/errors';
import { createHttpApp } from '@platform/http';
import type { ProcessLogger } from '@platform/logging';
import { CERTSVC_ACCESS } from '../app/access/access.decorators';
import { AppModule } from './app.module';
import type { CertsvcConfig } from '../app/config/certsvc-config';
import { InvalidRequestError } from '../app/errors/certsvc-error';
import { CertsvcExceptionFilter } from '../app/errors/certsvc-exception.filter';
import { installAccessLog } from '../app/logging/access-log';
import { CertsvcMetrics } from '../app/metrics/certsvc-metrics';
import { installOcspRequestParser } from '../modules/crl/ocsp-body';
import { installLogSnapshotParser } from '../modules/log-snapshots/log-snapshot-files';
import { contentTypeEnforcement } from '../app/metrics/content-type.hook';
import { CERTSVC_OPENAPI } from './openapi/openapi-document';
import { installRequestContext } from '../app/request-context/request-context.hooks';
import { startCertsvcTracing } from '../app/tracing/certsvc-tracing';

/** What the API process is started with: validated config, its logger and its metrics. */
export interface CertsvcRuntime {
  config: CertsvcConfig;
  logger: ProcessLogger;
  metrics: CertsvcMetrics;
}

export interface CreateAppOptions {
  /** Build the module graph without instantiating providers (no database): OpenAPI export. */
  preview?: boolean;
  /** Additional modules (tests mount probe controllers this way). */
  extraImports?: ModuleMetadata['imports'];
}

const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The certificate API on the shared HTTP bootstrap (not yet listening). Used by main.ts, the
 * e2e tests and the OpenAPI writer. `listen()` (or `init()`) applies pending migrations under
 * the advisory lock, then runs the start-up tasks (CA, local admin).
 */
export function createCertificateApp(
  runtime: CertsvcRuntime,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  const { config, logger, metrics } = runtime;
  return createHttpApp({
    module: AppModule.forRoot(config, metrics, options.extraImports),
    errorFilter: CertsvcExceptionFilter,
    validationError: (errors) => new InvalidRequestError(flattenValidationErrors(errors)),
    transportRefusal: ({ code, message }) => ({
      code: code === 'bad_request' ? 'invalid_request' : code,
      message,
    }),
    bodyLimitBytes: BODY_LIMIT_BYTES,
    // Keeps the exact JSON body (`request.rawBody`): enroll source-auth verifies a signature
    // over it. At the `observe` step a mislabelled body is still read as JSON (and counted).
    jsonBody: {
      keepRawBody: true,
      otherMediaTypes: config.contentTypeEnforcement === 'observe' ? 'parse-as-json' : 'refuse',
    },
    onMediaTypeViolation: contentTypeEnforcement(metrics, config.contentTypeEnforcement),
    logging: { logger, requests: { kind: 'service-line' } },
    // `GET /metrics` is a route of the API port (system module), as the spec requires.
    metrics: { http: metrics.http },
    requestHooks: (fastify) => {
      installRequestContext(fastify);
      installAccessLog(fastify, logger, { devMode: config.devMode });
    },
    // A server span per request (W3C/B3 continued), as in the findings service.
    tracing: startCertsvcTracing(config, 'backend'),
    openApi: CERTSVC_OPENAPI,
    routeAccess: CERTSVC_ACCESS,
    preview: options.preview,
    // OCSP requests (`POST /pki/ocsp`, DER; refused on every other route by the media-type gate).
    // Agent log snapshots (`POST /requests/{id}/logs`, gzip, streamed; same gate).
    plugins: (nest) => {
      const fastify = nest.getHttpAdapter().getInstance();
      installOcspRequestParser(fastify);
      installLogSnapshotParser(fastify);
      return Promise.resolve();
    },
  });
}
