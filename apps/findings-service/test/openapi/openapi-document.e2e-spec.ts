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

  it('declares each header parameter of an operation once, Accept-Language optional', () => {
    type Parameter = { name: string; in: string; required?: boolean };
    const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as {
      paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
    };
    const problems: string[] = [];
    let localized = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const headers = (operation.parameters ?? []).filter((p) => p.in === 'header');
        const names = headers.map((h) => h.name.toLowerCase());
        if (new Set(names).size !== names.length) problems.push(`${method} ${path}: ${names}`);
        for (const h of headers) {
          if (h.name.toLowerCase() !== 'accept-language') continue;
          localized += 1;
          if (h.name !== 'Accept-Language' || h.required) {
            problems.push(`${method} ${path}: ${h.name} required=${String(h.required)}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    // The jobs routes and GET one report explain failures in the caller's language.
    expect(localized).toBeGreaterThanOrEqual(6);
  });
});
