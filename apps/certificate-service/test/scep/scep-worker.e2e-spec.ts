import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { sha256Fingerprint } from '@platform/pki';
import { ScepStandIn } from '@platform/pki/testing';
import { waitFor } from '@platform/testing';
import { loadCertsvcConfig } from '../../src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../src/app/metrics/certsvc-metrics';
import { WorkerModule } from '../../src/worker/worker.module';
import { enrollDevice } from '../fixtures/enroll';
import { approveRows } from '../fixtures/issue';
import { ISSUER_TEST_ENV, putProfile } from '../issuers/issuer-support';
import { LogCapture } from '../support/log-capture';
import { loginAdmin } from '../support/sessions';
import {
  startTestApp,
  TEST_CA_KEY_ENC_KEY,
  TEST_JWT_SECRET,
  type TestApp,
} from '../support/test-app';
import { pendingRecord, requestState } from './scep-support';

/** Loopback allowed the way an administrator allows a host; the guard stays on. */
const SCEP_ENV = {
  ...ISSUER_TEST_ENV,
  CERTSVC_ISSUER_EGRESS_ALLOW_HTTP: 'true',
  CERTSVC_ISSUER_EGRESS_ALLOWLIST: '127.0.0.1/32',
  CERTSVC_ISSUER_RELOAD_SECONDS: '1',
  CERTSVC_SCEP_POLL_SECONDS: '1',
};

describe('SCEP poller in the worker - a stored SCEP profile, two worker replicas', () => {
  let t: TestApp;
  let ca: ScepStandIn;
  const workers: INestApplicationContext[] = [];
  beforeAll(async () => {
    ca = await new ScepStandIn({ pendingPolls: 3 }).start();
    t = await startTestApp({ env: SCEP_ENV });
  });
  afterAll(async () => {
    for (const worker of workers) await worker.close();
    await t.close();
    await ca.close();
  });

  function startWorker(): Promise<INestApplicationContext> {
    const config = loadCertsvcConfig({
      CERTSVC_DATABASE_URL: t.db.url,
      CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
      CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
      ...SCEP_ENV,
    });
    return NestFactory.createApplicationContext(
      WorkerModule.forRoot(
        {
          config,
          logger: createCertsvcLogger(config, new LogCapture()),
          metrics: new CertsvcMetrics({ processMetrics: false }),
        },
        { crlRefreshEveryMs: 60_000, scepPollEveryMs: 200 },
      ),
      { logger: false },
    );
  }

  it('approve -> ca_pending; the leading worker polls with CertPoll until issued, never twice', async () => {
    const admin = await loginAdmin(t);
    await putProfile(t, admin.accessToken, 'wifi', {
      kind: 'scep',
      url: ca.url,
      ca_fingerprint: sha256Fingerprint(ca.caCertificateDer),
    }).expect(200);
    const device = await enrollDevice(t);
    const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
    expect(row).toMatchObject({ status: 'ca_pending' });
    const transactionId = (await pendingRecord(t, device.requestId))?.transaction_id ?? '';
    workers.push(await startWorker(), await startWorker());
    await waitFor(
      async () =>
        expect(await requestState(t, device.requestId)).toMatchObject({
          status: 'issued',
          certificates: 1,
        }),
      { timeoutMs: 20_000 },
    );
    // PENDING to the PKCSReq and to two CertPolls, SUCCESS to the third: one poller only.
    expect(ca.count('19', transactionId)).toBe(1);
    expect(ca.count('20', transactionId)).toBe(3);
    expect(await pendingRecord(t, device.requestId)).toBeUndefined();
  });
});
