import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  documentedSuccesses,
  operationsWithoutSuccess,
  undocumentedServedStatuses,
  type OpenApiResponses,
} from '@platform/testing';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createCertificateApp } from '../../src/api/create-app';
import { loadCertsvcConfig } from '../../src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../src/app/metrics/certsvc-metrics';
import { OPENAPI_OUTPUT } from '../../src/api/openapi/write-openapi';

describe('OpenAPI document - every operation documents its success response', () => {
  const committed = resolve(__dirname, '../../../..', OPENAPI_OUTPUT);
  const documented = documentedSuccesses(
    JSON.parse(readFileSync(committed, 'utf8')) as OpenApiResponses,
  );
  let app: NestFastifyApplication;
  beforeAll(async () => {
    const config = loadCertsvcConfig({
      CERTSVC_DATABASE_URL: 'postgres://openapi@127.0.0.1:1/unused',
      CERTSVC_DEV_MODE: 'true',
      CERTSVC_LOG_LEVEL: 'error',
    });
    app = await createCertificateApp(
      {
        config,
        logger: createCertsvcLogger({ logLevel: 'error', devMode: false }),
        metrics: new CertsvcMetrics({ processMetrics: false }),
      },
      { preview: true },
    );
  });
  afterAll(() => app.close());

  it('has a 2xx response on every operation of docs/openapi/certificate-service.json', () => {
    expect(documented.size).toBeGreaterThan(40);
    expect(operationsWithoutSuccess(documented)).toEqual([]);
  });

  it('documents the status each route really answers with', () => {
    expect(undocumentedServedStatuses(app, documented)).toEqual([]);
  });
});
