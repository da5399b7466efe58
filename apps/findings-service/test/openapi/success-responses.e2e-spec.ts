import { INestApplication } from '@nestjs/common';
import {
  documentedSuccesses,
  operationsWithoutSuccess,
  undocumentedServedStatuses,
  type OpenApiResponses,
} from '@platform/testing';
import { readFileSync } from 'node:fs';
import { createFindingsApp } from '../../src/api/create-app';
import { loadFindingsConfig } from '../../src/app/config/findings-config';
import { OPENAPI_FILE } from '../../src/api/openapi/openapi-export';

describe('OpenAPI - every operation documents its success response', () => {
  // A redirecting route (single sign-on) succeeds with its redirect.
  const documented = documentedSuccesses(
    JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as OpenApiResponses,
    { redirects: true },
  );
  let app: INestApplication;
  beforeAll(async () => {
    const config = loadFindingsConfig(
      {
        DATABASE_URL: 'postgres://openapi@127.0.0.1:1/unused',
        REDIS_URL: 'redis://127.0.0.1:1',
        LOG_LEVEL: 'error',
        LOG_FILE_SINK_ENABLED: 'false',
      },
      'api',
    );
    app = await createFindingsApp(config, { preview: true });
  });
  afterAll(() => app.close());

  it('has a success response (2xx, or a redirect) on every operation of docs/openapi/findings-service.json', () => {
    expect(documented.size).toBeGreaterThan(20);
    expect(operationsWithoutSuccess(documented)).toEqual([]);
  });

  it('documents the status each route really answers with', () => {
    expect(undocumentedServedStatuses(app, documented)).toEqual([]);
  });
});
