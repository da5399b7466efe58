import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { parseCsr } from '@platform/pki';
import { ecKeyPair, EstStandIn, makeCsr } from '@platform/pki/testing';
import { waitFor } from '@platform/testing';
import { loadCertsvcConfig } from '../../src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../src/app/metrics/certsvc-metrics';
import { IssuerRegistry } from '../../src/modules/ca/issuer-registry';
import { WorkerModule } from '../../src/worker/worker.module';
import { LogCapture } from '../support/log-capture';
import { loginAdmin } from '../support/sessions';
import {
  startTestApp,
  TEST_CA_KEY_ENC_KEY,
  TEST_JWT_SECRET,
  type TestApp,
} from '../support/test-app';
import { estBasicProfile, ISSUER_TEST_ENV, putProfile } from './issuer-support';

describe('Issuer profiles in the worker (the SCEP poller asks registry.forPurpose there)', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  let est: EstStandIn;
  beforeAll(async () => {
    est = await EstStandIn.start({ basic: { username: 'ra', password: 'ra-secret' } });
    t = await startTestApp({ env: ISSUER_TEST_ENV });
    const config = loadCertsvcConfig({
      CERTSVC_DATABASE_URL: t.db.url,
      CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
      CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
      ...ISSUER_TEST_ENV,
      CERTSVC_ISSUER_RELOAD_SECONDS: '1',
    });
    worker = await NestFactory.createApplicationContext(
      WorkerModule.forRoot({
        config,
        logger: createCertsvcLogger(config, new LogCapture()),
        metrics: new CertsvcMetrics({ processMetrics: false }),
      }),
      { logger: false },
    );
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    await est.close();
  });

  it('follows a PUT made through the API and issues with the stored secrets', async () => {
    const registry = worker.get(IssuerRegistry, { strict: false });
    expect(registry.forPurpose('wifi').kind).toBe('built_in');
    const admin = await loginAdmin(t);
    await putProfile(t, admin.accessToken, 'wifi', estBasicProfile(est)).expect(200);
    // What the worker's users of an issuer (the SCEP poller) do first: ensureFresh.
    await waitFor(
      async () => {
        await registry.ensureFresh();
        expect(registry.forPurpose('wifi').kind).toBe('est');
      },
      { timeoutMs: 5000 },
    );
    const keyPair = ecKeyPair();
    const outcome = await registry.forPurpose('wifi').issue({
      requestId: 'worker-probe',
      purpose: 'wifi',
      csr: parseCsr(makeCsr({ keyPair, commonName: 'WORKER-1' })),
      subjectCommonName: 'WORKER-1',
    });
    expect(outcome.status).toBe('issued');
    expect(est.calls.at(-1)).toMatchObject({ operation: 'simpleenroll', auth: 'basic' });
  });
});
