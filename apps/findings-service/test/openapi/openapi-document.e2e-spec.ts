import SwaggerParser from '@apidevtools/swagger-parser';
import { existsSync, readFileSync } from 'node:fs';
import {
  exportOpenApiDocument,
  OPENAPI_FILE,
  serializeOpenApi,
} from '../../src/api/openapi/openapi-export';

describe('OpenAPI - docs/openapi/findings-service.json', () => {
  it('is a valid OpenAPI 3 document and matches what the code generates (not stale)', async () => {
    expect(existsSync(OPENAPI_FILE)).toBe(true);
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    const parsed = JSON.parse(committed) as { openapi: string; info: { version: string } };
    expect(parsed.openapi).toMatch(/^3\./);
    expect(parsed.info.version).toMatch(/^\d+\.\d+$/);
    await SwaggerParser.validate(JSON.parse(committed));
    const generated = serializeOpenApi(await exportOpenApiDocument());
    if (JSON.stringify(JSON.parse(generated)) !== JSON.stringify(parsed)) {
      throw new Error(
        'docs/openapi/findings-service.json is stale: run ' +
          'SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register apps/findings-service/src/api/openapi/write-openapi.ts',
      );
    }
  });

  it('documents both security schemes and every admin route', () => {
    const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as {
      components: { securitySchemes: Record<string, { type: string }> };
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['api_key', 'bearer']);
    for (const path of [
      '/api/v1/admin/service-accounts',
      '/api/v1/admin/service-accounts/{id}',
      '/api/v1/admin/service-accounts/{id}/permissions',
      '/api/v1/admin/service-accounts/{id}/permissions/{permission_id}',
      '/api/v1/admin/users',
      '/api/v1/admin/users/{id}',
      '/api/v1/admin/users/{id}/enabled',
      '/api/v1/auth/local/login',
      '/api/v1/auth/token/refresh',
      '/api/v1/auth/logout',
      '/api/v1/auth/me',
      '/api/v1/auth/config',
      '/health',
      '/version',
      '/api/v1/version',
    ]) {
      expect(doc.paths[path]).toBeDefined();
    }
  });
});
