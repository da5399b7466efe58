import { INestApplication } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { createFindingsApp } from '../../src/app/create-app';
import { loadFindingsConfig } from '../../src/app/config/findings-config';
import { OPENAPI_FILE } from '../../src/app/openapi/openapi-export';
import { servedRoutes } from '../support/served-routes';

type Document = { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };

function successStatuses(doc: Document): Map<string, string[]> {
  const operations = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      // A redirecting route (single sign-on) succeeds with its redirect.
      const codes = Object.keys(operation.responses ?? {}).filter((s) =>
        /^(2\d\d|30[12378])$/.test(s),
      );
      operations.set(`${method} ${path}`, codes);
    }
  }
  return operations;
}

describe('OpenAPI - every operation documents its success response', () => {
  const documented = successStatuses(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Document);
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
    const missing = [...documented].filter(([, codes]) => codes.length === 0).map(([op]) => op);
    expect(missing).toEqual([]);
  });

  it('documents the status each route really answers with', () => {
    const wrong = servedRoutes(app)
      .filter((r) => !documented.get(r.operation)?.includes(String(r.status)))
      .map((r) => `${r.operation}: serves ${r.status}, documents ${documented.get(r.operation)}`);
    expect(wrong).toEqual([]);
  });
});
