import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { OpenApiMount } from '@platform/http';
import { currentBuildInfo } from '@platform/versioning';

/** The service's OpenAPI 3 document; keys sorted so the written file is deterministic. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Certificate service')
    .setDescription(
      'Device certificate service. Errors are `{"code": "...", "message": "..."}`; see docs/certificate-service/errors.md.',
    )
    .setVersion(currentBuildInfo().majorMinor)
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: 'JWT access token or a `wca_*` service-account token',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  addErrorResponses(document);
  return sortKeys(document) as OpenAPIObject;
}

type ComponentSchema = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string];

const ERROR_SCHEMA: ComponentSchema = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', example: 'forbidden' },
    message: { type: 'string' },
    details: {
      type: 'array',
      description: 'field problems (code `invalid_request` only)',
      items: {
        type: 'object',
        properties: {
          field: { type: 'string' },
          problems: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
};

/** Every operation documents the error envelope as its default response. */
function addErrorResponses(document: OpenAPIObject): void {
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Error: ERROR_SCHEMA },
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      if (!operation) continue;
      operation.responses.default = {
        description: 'error: `{"code": "...", "message": "..."}`',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
  }
}

/** The interactive description at `/swagger/`, the document at `/swagger/json`. */
export const CERTSVC_OPENAPI: OpenApiMount = {
  path: 'swagger',
  jsonPath: 'swagger/json',
  yamlPath: 'swagger/yaml',
  document: buildOpenApiDocument,
};

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}
