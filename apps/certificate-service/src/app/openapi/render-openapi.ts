import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../app.module';
import { createAdapter } from '../create-app';
import { loadCertsvcConfig } from '../config/certsvc-config';
import { createCertsvcLogger } from '../logging/certsvc-logger';
import { CertsvcMetrics } from '../metrics/certsvc-metrics';
import { buildOpenApiDocument } from './openapi-document';

/**
 * The committed OpenAPI document as text (2-space JSON, keys sorted). The app is created in
 * preview mode with a placeholder configuration: nothing connects to a database.
 */
export async function renderOpenApiDocument(): Promise<string> {
  const config = loadCertsvcConfig({
    CERTSVC_DATABASE_URL: 'postgres://openapi@127.0.0.1:1/unused',
    CERTSVC_DEV_MODE: 'true',
    CERTSVC_LOG_LEVEL: 'error',
  });
  const runtime = {
    config,
    logger: createCertsvcLogger(config),
    metrics: new CertsvcMetrics({ processMetrics: false }),
    applicationName: 'certificate-service-openapi',
  };
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(runtime),
    createAdapter(runtime),
    {
      preview: true,
      logger: false,
      abortOnError: false,
    },
  );
  try {
    const document = buildOpenApiDocument(app);
    return `${JSON.stringify(document, null, 2)}\n`;
  } finally {
    await app.close();
  }
}
