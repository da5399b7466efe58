import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { waitFor, type TestDatabase } from '@platform/testing';
import { Client } from 'pg';
import { loadCertsvcConfig } from '../../src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../src/app/metrics/certsvc-metrics';
import { CrlService } from '../../src/modules/crl/crl.service';
import { WorkerModule } from '../../src/worker/worker.module';
import { LogCapture } from '../support/log-capture';
import {
  startTestApp,
  TEST_CA_KEY_ENC_KEY,
  TEST_JWT_SECRET,
  testDatabase,
} from '../support/test-app';

const PERIOD_MS = 100;

interface Worker {
  context: INestApplicationContext;
  /** Periodic CRL checks this worker ran. */
  refreshes: jest.SpyInstance;
  /** CRLs this worker signed. */
  publishes: jest.SpyInstance;
}

async function startWorker(db: TestDatabase): Promise<Worker> {
  const config = loadCertsvcConfig({
    CERTSVC_DATABASE_URL: db.url,
    CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
    CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
  });
  const runtime = {
    config,
    logger: createCertsvcLogger(config, new LogCapture()),
    metrics: new CertsvcMetrics({ processMetrics: false }),
  };
  const context = await NestFactory.createApplicationContext(
    WorkerModule.forRoot(runtime, { crlRefreshEveryMs: PERIOD_MS }),
    { logger: false },
  );
  const crl = context.get(CrlService);
  return {
    context,
    refreshes: jest.spyOn(crl, 'refreshIfDue'),
    publishes: jest.spyOn(crl, 'publish'),
  };
}

async function query<T>(db: TestDatabase, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

const crlNumber = async (db: TestDatabase): Promise<number> => {
  const rows = await query<{ n: string }>(db, 'SELECT crl_number AS n FROM crl_state');
  return rows.length === 0 ? 0 : Number(rows[0].n);
};

describe('Worker - periodic tasks under the leader lock', () => {
  let db: TestDatabase;
  const workers: Worker[] = [];
  beforeAll(async () => {
    db = await testDatabase();
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.context.close()));
    await db.drop();
  });

  it('two workers on one database: the leader re-signs the CRL each time it is due, the other never; it takes over when the leader stops', async () => {
    workers.push(await startWorker(db), await startWorker(db));
    const [first, second] = workers;
    await waitFor(
      () =>
        expect(
          first.refreshes.mock.calls.length + second.refreshes.mock.calls.length,
        ).toBeGreaterThanOrEqual(6),
      { what: 'six CRL checks' },
    );
    const [leader, follower] =
      first.refreshes.mock.calls.length > 0 ? [first, second] : [second, first];
    expect(follower.refreshes).not.toHaveBeenCalled();
    expect(await crlNumber(db)).toBe(1);

    // The CRL falls due: exactly one worker re-signs it, once.
    await query(db, 'UPDATE crl_state SET next_update = now()');
    await waitFor(async () => expect(await crlNumber(db)).toBe(2), { what: 'the CRL re-signed' });
    const checks = leader.refreshes.mock.calls.length;
    await waitFor(() => expect(leader.refreshes.mock.calls.length).toBeGreaterThan(checks + 2));
    expect(await crlNumber(db)).toBe(2);
    expect(leader.publishes).toHaveBeenCalledTimes(2);
    expect(follower.refreshes).not.toHaveBeenCalled();
    expect(follower.publishes).not.toHaveBeenCalled();

    // The leader stops: the other worker leads from its next tick.
    await leader.context.close();
    workers.splice(workers.indexOf(leader), 1);
    await waitFor(() => expect(follower.refreshes).toHaveBeenCalled(), {
      what: 'the follower leading',
    });
    await query(db, 'UPDATE crl_state SET next_update = now()');
    await waitFor(async () => expect(await crlNumber(db)).toBe(3), {
      what: 'the CRL re-signed by the new leader',
    });
    expect(follower.publishes).toHaveBeenCalledTimes(1);
  }, 30_000);

  it('the API starts no timer: the periodic CRL check exists only in the worker', async () => {
    const intervals = jest.spyOn(global, 'setInterval');
    const api = await startTestApp();
    try {
      // Revocations still re-sign the CRL at once (issuance/certificate-revoke.e2e-spec.ts).
      expect(intervals).not.toHaveBeenCalled();
    } finally {
      intervals.mockRestore();
      await api.close();
    }
  });
});
