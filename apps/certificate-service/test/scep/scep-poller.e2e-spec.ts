import { ScepStandIn, type ScepStandInMode } from '@platform/pki/testing';
import { ScepModule } from '../../src/modules/scep/scep.module';
import { enrollDevice, enrollDevices, sql, startEnrollApp } from '../fixtures/enroll';
import { approveRows } from '../fixtures/issue';
import { loginAdmin, type TestUser } from '../support/sessions';
import { testDatabase, type TestApp } from '../support/test-app';
import {
  later,
  pendingRecord,
  poller,
  requestState,
  scepIssuer,
  secondPoller,
  useScep,
} from './scep-support';

const CERT_POLL = '20';

describe('SCEP poller - one poll per record, restarts, retry budget, hostile answers', () => {
  let t: TestApp;
  let admin: TestUser;
  let ca: ScepStandIn;
  beforeAll(async () => {
    t = await startEnrollApp({ extraImports: [ScepModule] });
    admin = await loginAdmin(t);
    ca = await new ScepStandIn({ delayMs: 30 }).start();
    useScep(t, scepIssuer(ca.url));
  });
  afterAll(async () => {
    await ca.close();
    await t.close();
  });
  beforeEach(async () => {
    ca.mode = 'normal';
    ca.pendingPolls = 1000;
    // Each test starts with no record due: earlier tests' records end or wait far ahead.
    await sql(t, `UPDATE scep_pending SET next_poll_at = NULL`);
  });

  async function caPending(count: number): Promise<string[]> {
    const devices = await enrollDevices(t, count);
    const rows = await approveRows(
      t,
      admin.accessToken,
      devices.map((d) => d.requestId),
    );
    expect(rows.every((r) => r.status === 'ca_pending')).toBe(true);
    return devices.map((d) => d.requestId);
  }

  async function transactionIds(ids: string[]): Promise<string[]> {
    return Promise.all(ids.map(async (id) => (await pendingRecord(t, id))?.transaction_id ?? ''));
  }

  it('two pollers racing over the same records poll each record once per tick', async () => {
    const ids = await caPending(6);
    const txns = await transactionIds(ids);
    const a = poller(t);
    const b = secondPoller(t);
    for (let tick = 1; tick <= 3; tick++) {
      const now = later(tick * 10);
      const [ra, rb] = await Promise.all([a.pollOnce({ now }), b.pollOnce({ now })]);
      expect(ra.polled + rb.polled).toBe(6);
      for (const txn of txns) expect(ca.count(CERT_POLL, txn)).toBe(tick);
    }
    for (const id of ids) expect(await pendingRecord(t, id)).toMatchObject({ attempts: 3 });
  });

  it('a poll that outlasts its lease records nothing: the poller that re-claimed the record decides', async () => {
    const [id] = await caPending(1);
    const slow = await new ScepStandIn({ delayMs: 1500 }).start();
    try {
      useScep(t, scepIssuer(slow.url));
      slow.pendingPolls = 1000;
      const start = later(30);
      const first = poller(t).pollOnce({ now: start, leaseMs: 200 });
      await new Promise((r) => setTimeout(r, 500));
      // The first poll is still waiting for the CA; its 200 ms lease is over.
      const second = secondPoller(t).pollOnce({ now: new Date(start.getTime() + 300) });
      const [a, b] = await Promise.all([first, second]);
      expect(a).toMatchObject({ polled: 1, pending: 0 });
      expect(b).toMatchObject({ polled: 1, pending: 1 });
      expect(await pendingRecord(t, id)).toMatchObject({ attempts: 1 });
    } finally {
      useScep(t, scepIssuer(ca.url));
      await slow.close();
    }
  });

  it('a purpose switched back to the built-in CA keeps its record, with last_error saying why', async () => {
    const [id] = await caPending(1);
    useScep(t, undefined);
    try {
      await poller(t).pollOnce({ now: later(40) });
      expect((await pendingRecord(t, id))?.last_error).toMatch(/built_in\) cannot poll/);
      expect(await requestState(t, id)).toMatchObject({ status: 'ca_pending', certificates: 0 });
    } finally {
      useScep(t, scepIssuer(ca.url));
    }
  });

  it('the retry budget ends in failed / scep_retry_budget_exhausted with last_error kept', async () => {
    const [id] = await caPending(1);
    const budget = { steadyPolls: 1, maxIntervalMs: 60_000, maxAttempts: 3, maxAgeMs: 86_400_000 };
    for (let tick = 1; tick <= 3; tick++) {
      await poller(t).pollOnce({ now: later(tick * 10), budget });
    }
    expect(await requestState(t, id)).toEqual({
      status: 'failed',
      status_reason: 'scep_retry_budget_exhausted',
      certificates: 0,
    });
    const record = await pendingRecord(t, id);
    expect(record).toMatchObject({ attempts: 3, next_poll_at: null });
    expect(record?.last_error).toMatch(/still answered PENDING after 3 polls/);
    // Ended: never polled again.
    expect(await poller(t).pollOnce({ now: later(600), budget })).toMatchObject({ polled: 0 });
  });

  it('the budget also ends on age, after back-off past the steady polls', async () => {
    const [id] = await caPending(1);
    const budget = {
      steadyPolls: 2,
      maxIntervalMs: 3_600_000,
      maxAttempts: 100,
      maxAgeMs: 60 * 60_000,
    };
    const n1 = later(1);
    await poller(t).pollOnce({ now: n1, budget });
    const first = (await pendingRecord(t, id))?.next_poll_at?.getTime();
    const n2 = later(2);
    await poller(t).pollOnce({ now: n2, budget });
    const second = (await pendingRecord(t, id))?.next_poll_at?.getTime();
    // CERTSVC_SCEP_POLL_SECONDS (30 s) for the steady polls, then doubling.
    expect([first, second]).toEqual([n1.getTime() + 30_000, n2.getTime() + 60_000]);
    await poller(t).pollOnce({ now: later(61), budget });
    expect(await requestState(t, id)).toMatchObject({
      status: 'failed',
      status_reason: 'scep_retry_budget_exhausted',
    });
  });

  const hostile: Array<[ScepStandInMode, RegExp]> = [
    ['wrong_signature', /scep_answer_invalid: .*invalid signature/],
    ['wrong_transaction', /scep_answer_invalid: .*another transactionID/],
    ['garbage', /scep_answer_invalid: .*(not valid DER|not a PKCS#7)/],
    ['other_key', /scep_answer_invalid: .*another key/],
    ['wrong_nonce', /scep_answer_invalid: .*recipientNonce/],
    ['http_error', /scep_transport_failed: .*HTTP 500/],
  ];

  it('hostile answers leave a clear last_error and never a certificate; a sane answer then issues', async () => {
    ca.pendingPolls = 1; // PENDING to the PKCSReq, then every CertPoll is answered SUCCESS
    const [id] = await caPending(1);
    let minutes = 10;
    for (const [mode, message] of hostile) {
      ca.mode = mode;
      await poller(t).pollOnce({ now: later((minutes += 10)) });
      const record = await pendingRecord(t, id);
      expect({ mode, error: record?.last_error }).toEqual({
        mode,
        error: expect.stringMatching(message) as unknown,
      });
      expect(await requestState(t, id)).toMatchObject({ status: 'ca_pending', certificates: 0 });
    }
    ca.mode = 'normal';
    await poller(t).pollOnce({ now: later(minutes + 10) });
    expect(await requestState(t, id)).toMatchObject({ status: 'issued', certificates: 1 });
  });

  it('a restarted service resumes the ca_pending records from the table', async () => {
    const db = await testDatabase();
    const first = await startEnrollApp({ database: db, extraImports: [ScepModule] });
    let requestId: string;
    try {
      useScep(first, scepIssuer(ca.url));
      ca.pendingPolls = 2;
      const device = await enrollDevice(first);
      requestId = device.requestId;
      const token = (await loginAdmin(first)).accessToken;
      expect(await approveRows(first, token, [requestId])).toMatchObject([
        { status: 'ca_pending' },
      ]);
      expect(await poller(first).pollOnce({ now: later(1) })).toMatchObject({ pending: 1 });
    } finally {
      await first.close(); // the database stays
    }
    const restarted = await startEnrollApp({ database: db, extraImports: [ScepModule] });
    try {
      useScep(restarted, scepIssuer(ca.url));
      expect(await pendingRecord(restarted, requestId)).toMatchObject({ attempts: 1 });
      expect(await poller(restarted).pollOnce({ now: later(5) })).toMatchObject({ issued: 1 });
      expect(await requestState(restarted, requestId)).toMatchObject({
        status: 'issued',
        certificates: 1,
      });
    } finally {
      await restarted.close();
      await db.drop();
    }
  });
});
