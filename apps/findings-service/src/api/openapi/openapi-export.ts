import { OpenAPIObject } from '@nestjs/swagger';
import { join } from 'node:path';
import { createFindingsApp } from '../create-app';
import { loadFindingsConfig } from '../../app/config/findings-config';
import { buildOpenApiDocument } from './openapi-document';

/** Where the committed, portable OpenAPI document lives. */
export const OPENAPI_FILE = join(__dirname, '../../../../../docs/openapi/findings-service.json');

/**
 * Builds the OpenAPI document from the module graph in preview mode: no provider is
 * instantiated, so neither PostgreSQL nor Redis is needed and nothing is contacted.
 */
export async function exportOpenApiDocument(): Promise<OpenAPIObject> {
  const config = loadFindingsConfig(
    {
      DATABASE_URL: 'postgres://openapi@127.0.0.1:1/unused',
      REDIS_URL: 'redis://127.0.0.1:1',
      LOG_LEVEL: 'error',
      LOG_FILE_SINK_ENABLED: 'false',
    },
    'api',
  );
  const app = await createFindingsApp(config, { preview: true });
  return buildOpenApiDocument(app);
}

/** The file's exact content: 2-space JSON and a final newline. */
export function serializeOpenApi(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
