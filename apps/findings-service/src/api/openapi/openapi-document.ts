import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { type OpenApiMount } from '@platform/http';
import { currentBuildInfo } from '@platform/versioning';
import { API_KEY_SCHEME, BEARER_SCHEME } from '../../app/access/access.decorators';

/** The OpenAPI 3 description of the API; `info.version` is X.Y only so the document is stable. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Findings service API')
    .setDescription(
      'Findings management service. Successes under /api/v1 are wrapped as {"data": ...}; ' +
        'errors are {"error": "<localized>", "code": "<machine code>"}.',
    )
    .setVersion(currentBuildInfo().majorMinor)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER_SCHEME)
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description:
          'Service-account key `sa_<8 hex>_<secret>`; `Authorization: ApiKey <key>` also works',
      },
      API_KEY_SCHEME,
    )
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
}

/** Interactive description at /api/docs, JSON at /api/docs-json. */
export const FINDINGS_OPENAPI: OpenApiMount = {
  path: 'api/docs',
  jsonPath: 'api/docs-json',
  yamlPath: 'api/docs-yaml',
  document: buildOpenApiDocument,
};
