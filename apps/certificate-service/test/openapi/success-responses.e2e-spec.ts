import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createCertificateApp } from '../../src/app/create-app';
import { loadCertsvcConfig } from '../../src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../src/app/metrics/certsvc-metrics';
import { OPENAPI_OUTPUT } from '../../src/app/openapi/write-openapi';
import { servedRoutes } from '../support/served-routes';

type Document = { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };

function successStatuses(doc: Document): Map<string, string[]> {
  const operations = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const codes = Object.keys(operation.responses ?? {}).filter((s) => /^2\d\d$/.test(s));
      operations.set(`${method} ${path}`, codes);
    }
  }
  return operations;
}

describe('OpenAPI document - every operation documents its success response', () => {
  const committed = resolve(__dirname, '../../../..', OPENAPI_OUTPUT);
  const documented = successStatuses(JSON.parse(readFileSync(committed, 'utf8')) as Document);
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
