import {
  type DynamicModule,
  type ExceptionFilter,
  type INestApplication,
  type INestApplicationContext,
  Module,
  type Type,
  type ValidationError,
} from '@nestjs/common';
import { APP_FILTER, APP_PIPE, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import {
  LoggingModule,
  NestLogger,
  requestLogScope,
  resolveRequestId,
  type ProcessLogger,
  type RequestLogLines,
} from '@platform/logging';
import {
  type HttpMetrics,
  installHttpMetrics,
  MetricsListenerModule,
  type MetricsListenerOptions,
} from '@platform/metrics';
import { type Tracing, TracingModule } from '@platform/tracing';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { installJsonBodyParser, type JsonBodyOptions } from '../body/json-body-parser';
import { installMediaTypeGate, type MediaTypeVerdict } from '../body/media-type-gate';
import { installJsonReplySerializer } from './json-reply';
import { inputPipes } from '../input/input-pipes';
import { clientErrorHandler, type TransportRefusal } from '../transport/client-error';
import { installHttpTracing } from './http-tracing';
import { installLingeringClose } from './lingering-close';

export interface OpenApiMount {
  /** Interactive description, e.g. `api/docs` or `swagger`. */
  path: string;
  jsonPath: string;
  yamlPath: string;
  document: (app: INestApplication) => OpenAPIObject;
}

/** A service's access declarations (`AccessDeclarations` of `@platform/auth`). */
export interface RouteAccessCheck {
  /** Throws, naming the routes, when a route declares no access rule. */
  assertEveryRouteDeclared(app: INestApplicationContext): void;
}

/** What differs between the services; everything else is the same wiring. */
export interface HttpAppOptions {
  /** The service's API module: config, database, features. */
  module: DynamicModule;
  /** The service's one exception filter (its error envelope), resolved through DI. */
  errorFilter: Type<ExceptionFilter>;
  /** The error a failed DTO validation is thrown as (the filter answers it). */
  validationError: (errors: ValidationError[]) => Error;
  /** The envelope of what the HTTP parser refuses before any route sees the request. */
  transportRefusal: (refusal: TransportRefusal) => object;
  bodyLimitBytes: number;
  jsonBody?: Omit<JsonBodyOptions, 'bodyLimit'>;
  /** A body of a media type its route does not take: 415, unless this lets it through. */
  onMediaTypeViolation?: (request: FastifyRequest) => MediaTypeVerdict;
  logging: { logger: ProcessLogger; requests: RequestLogLines };
  /** HTTP metrics of every request; `listener` serves them on a port of their own. */
  metrics: { http: HttpMetrics; listener?: MetricsListenerOptions };
  /**
   * The process's traces: a server span per request continuing `traceparent`/B3, the handler
   * run in its context; `Tracing` injectable and flushed at shutdown.
   */
  tracing?: Tracing;
  /** The service's own request hooks, run once the request id is set (context, access line). */
  requestHooks?: (fastify: FastifyInstance) => void;
  /** Fastify plugins the service adds (multipart). */
  plugins?: (app: NestFastifyApplication) => Promise<void>;
  openApi: OpenApiMount;
  /** Every route declares its access: the app refuses to start when one does not. */
  routeAccess: RouteAccessCheck;
  /** Module graph only, nothing instantiated or contacted (OpenAPI export). */
  preview?: boolean;
}

@Module({})
class HttpAppModule {}

function rootModule(options: HttpAppOptions): DynamicModule {
  const pipes = inputPipes(options.validationError);
  const listener = options.metrics.listener;
  return {
    module: HttpAppModule,
    imports: [
      LoggingModule.forRoot(options.logging),
      ...(listener ? [MetricsListenerModule.forRoot(listener)] : []),
      ...(options.tracing ? [TracingModule.forRoot(options.tracing)] : []),
      options.module,
    ],
    providers: [
      { provide: APP_FILTER, useClass: options.errorFilter },
      // In order: unstorable text refused, then DTOs validated.
      ...pipes.map((pipe) => ({ provide: APP_PIPE, useValue: pipe })),
    ],
  };
}

function createAdapter(options: HttpAppOptions): FastifyAdapter {
  const adapter = new FastifyAdapter({
    logger: false,
    trustProxy: false,
    bodyLimit: options.bodyLimitBytes,
    requestIdHeader: false,
    genReqId: (req: IncomingMessage) => resolveRequestId(req.headers),
    clientErrorHandler: clientErrorHandler(options.transportRefusal),
  });
  const fastify = adapter.getInstance();
  installJsonBodyParser(fastify, { ...options.jsonBody, bodyLimit: options.bodyLimitBytes });
  installJsonReplySerializer(fastify);
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-ID', request.id);
    done();
  });
  const enterRequestLog = requestLogScope(options.logging);
  if (enterRequestLog) {
    fastify.addHook('onRequest', (request, _reply, done) => enterRequestLog(request.id, done));
  }
  if (options.tracing) installHttpTracing(fastify, options.tracing);
  options.requestHooks?.(fastify);
  installHttpMetrics(fastify, options.metrics.http);
  installMediaTypeGate(fastify, options.onMediaTypeViolation);
  installLingeringClose(fastify);
  return adapter;
}

/**
 * The API of a service on Fastify, wired the same way for every service: body limits and
 * the JSON-only parser, X-Request-ID in and out, the process logger through nestjs-pino,
 * HTTP metrics, the global input pipes and the service's error filter, OpenAPI, graceful
 * shutdown (in-flight requests drain on SIGTERM). A route without an access declaration stops
 * it here, in every service alike (the guard would refuse such a route anyway). Not listening
 * yet: `listen()` (or `init()`) runs migrations and the start-up tasks.
 */
export async function createHttpApp(options: HttpAppOptions): Promise<NestFastifyApplication> {
  const preview = options.preview === true;
  const app = await NestFactory.create<NestFastifyApplication>(
    rootModule(options),
    createAdapter(options),
    {
      bodyParser: false,
      bufferLogs: !preview,
      preview,
      abortOnError: false,
      ...(preview ? { logger: false } : {}),
    },
  );
  await options.plugins?.(app);
  try {
    options.routeAccess.assertEveryRouteDeclared(app);
  } catch (error) {
    await app.close();
    throw error;
  }
  if (preview) return app;
  app.useLogger(app.get(NestLogger));
  // Nest flushes the start-up buffer only at listen(): until then every `new Logger(...)` line
  // (the services' one logging style) would wait in it, and forever in an app that is only
  // init()ed (tests, the benches). From here on lines go straight to the process logger.
  app.flushLogs();
  app.enableShutdownHooks();
  const { path, jsonPath, yamlPath, document } = options.openApi;
  SwaggerModule.setup(path, app, () => document(app), {
    jsonDocumentUrl: jsonPath,
    yamlDocumentUrl: yamlPath,
  });
  return app;
}
