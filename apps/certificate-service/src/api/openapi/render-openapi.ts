import { createCertificateApp } from '../create-app';
import { loadCertsvcConfig } from '../../app/config/certsvc-config';
import { createCertsvcLogger } from '../../app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../app/metrics/certsvc-metrics';
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
  const app = await createCertificateApp(
    {
      config,
      logger: createCertsvcLogger({ logLevel: 'error', devMode: false }),
      metrics: new CertsvcMetrics({ processMetrics: false }),
    },
    { preview: true },
  );
  try {
    const document = buildOpenApiDocument(app);
    return `${JSON.stringify(document, null, 2)}\n`;
  } finally {
    await app.close();
  }
}
