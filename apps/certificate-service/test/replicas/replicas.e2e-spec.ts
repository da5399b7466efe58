// test-lane: waiting — service processes starting, a killed leader's lease running out and a
// SCEP CA answering PENDING before it issues: ~30 of its ~42 s are waits (tools/test/lanes.js).
import { createHash } from 'node:crypto';
import { waitFor } from '@platform/testing';
import { sha256Fingerprint } from '@platform/pki';
import { ScepStandIn, sshKeygenQueryKrl } from '@platform/pki/testing';
import { Client } from 'pg';
import { enrollDevice, inProcessCsr, uniqueSerial, type EnrolledDevice } from '../fixtures/enroll';
import { adminKeyAction, registerKey, setOwner, SshKeyMaker } from '../fixtures/ssh-keys';
import { ISSUER_TEST_ENV, putProfile } from '../issuers/issuer-support';
import { bearer } from '../support/sessions';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/test-app';
import { WebhookReceiver } from '../webhooks/webhook-receiver';
import { crlOf } from './crl-reader';
import {
  startReplicaStack,
  type ApiReplica,
  type ReplicaStack,
  type WorkerReplica,
} from './replica-stack';

/**
 * Two API and two worker processes of the certificate service (the real entry points) on one
 * PostgreSQL database and one Redis, as a deployment with two replicas of each runs them. The
 * flows go to both APIs in turn; at the end one API and the leading worker are killed
 * (SIGKILL) in the middle of the work, and nothing may be lost or done twice.
 */
// Four Node processes boot from TypeScript sources beside the other test files: 20-40 s on the
// 2-core machine alone, 80 s seen under a load of 16; the flows wait on periodic tasks and on
// the expiry of a dead worker's claims.
const BOOT_TIMEOUT_MS = 180_000;
jest.setTimeout(120_000);

/** Requests per minute of the key-holder limiter: small, spent by the rate-limit test. */
const KEYHOLDER_LIMIT = 6;

let stack: ReplicaStack;
let receiver: WebhookReceiver;
/** A SCEP CA that answers PENDING to a request and its first CertPoll, then issues. */
let scepCa: ScepStandIn;
let admin: string;
let db: Client;
const keys = new SshKeyMaker();

/** The API replica for the i-th request: the two in turn, as a round-robin balancer sends. */
const api = (i: number): ApiReplica => stack.apis[i % stack.apis.length];

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  scepCa = await new ScepStandIn({ pendingPolls: 2 }).start();
  stack = await startReplicaStack({
    apiCount: 2,
    workerCount: 2,
    env: {
      ...ISSUER_TEST_ENV,
      // The SCEP CA on loopback, allowed as an administrator allows a host (guard still on).
      CERTSVC_ISSUER_EGRESS_ALLOW_HTTP: 'true',
      CERTSVC_ISSUER_EGRESS_ALLOWLIST: '127.0.0.1/32',
      CERTSVC_ISSUER_RELOAD_SECONDS: '1',
      CERTSVC_SCEP_POLL_SECONDS: '1',
      CERTSVC_KEYHOLDER_RATE_LIMIT_PER_MINUTE: String(KEYHOLDER_LIMIT),
      CERTSVC_WEBHOOK_POLL_SECONDS: '1',
      // A dead worker's claims expire after ceil(400 / 16) x 1 s + 5 s = 30 s. (At 400 ms, a
      // loaded machine timed a send out, and its retry came 30 s later.)
      CERTSVC_WEBHOOK_EGRESS_TIMEOUT_MS: '1000',
    },
  });
  db = new Client({ connectionString: stack.db.url });
  await db.connect();
  const login = await api(0)
    .t.http.post('/api/v1/auth/local/login')
    .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
    .expect(200);
  admin = (login.body as { access_token: string }).access_token;
  // Every event type, to a loopback receiver that deduplicates by the delivery id.
  await api(1)
    .t.http.post('/api/v1/admin/webhooks')
    .set(...bearer(admin))
    .send({ url: receiver.url('/hooks') })
    .expect(201);
  receiver.on('/hooks', () => ({ status: 200, delayMs: 20 }));
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
  keys.cleanup();
  await db?.end();
  await stack?.close();
  await receiver?.close();
  await scepCa?.close();
});

/** Enrolls `count` devices through the two APIs in turn. */
function enrollMany(count: number): Promise<EnrolledDevice[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const serial = uniqueSerial('REP');
      return enrollDevice(api(i).t, { serial, csr: inProcessCsr(serial) });
    }),
  );
}

/** Approves through `replica`; returns the issued certificate serial of each request. */
async function approve(replica: ApiReplica, requestIds: string[]): Promise<string[]> {
  const res = await replica.t.http
    .post('/api/v1/requests/approve')
    .set(...bearer(admin))
    .send({ request_ids: requestIds })
    .expect(200);
  const rows = (res.body as { results: { status: string; serial?: string }[] }).results;
  expect(rows.map((r) => r.status)).toEqual(requestIds.map(() => 'issued'));
  return rows.map((r) => r.serial as string);
}

/** Until `replica` uses `kind` for `wifi` (it reloads the profiles within a second). */
function issuerSeenBy(replica: ApiReplica, kind: string): Promise<void> {
  return waitFor(
    async () => {
      const res = await replica.t.http.get('/api/v1/issuer').expect(200);
      const wifi = (
        res.body as { by_purpose: { purpose: string; kind: string }[] }
      ).by_purpose.find((p) => p.purpose === 'wifi');
      expect(wifi?.kind).toBe(kind);
    },
    { timeoutMs: 10_000, intervalMs: 200, what: `${replica.name} issuing wifi through ${kind}` },
  );
}

/** What observers polling both APIs saw: each published number with the digest of its bytes. */
class PublicationLog {
  readonly seen: { replica: string; number: bigint; digest: string }[] = [];

  add(replica: string, number: bigint, bytes: Buffer): void {
    this.seen.push({ replica, number, digest: createHash('sha256').update(bytes).digest('hex') });
  }

  /** No number was published twice with different contents, and no observer saw one go down. */
  expectConsistent(): void {
    const byNumber = new Map<bigint, Set<string>>();
    for (const s of this.seen)
      byNumber.set(s.number, (byNumber.get(s.number) ?? new Set()).add(s.digest));
    for (const [number, digests] of byNumber)
      expect({ number, versions: digests.size }).toEqual({ number, versions: 1 });
    for (const replica of new Set(this.seen.map((s) => s.replica))) {
      const numbers = this.seen.filter((s) => s.replica === replica).map((s) => s.number);
      expect(numbers).toEqual([...numbers].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
  }
}

/** Runs `poll` on both APIs in turn until `work` has settled. */
async function observeWhile(work: Promise<unknown>, poll: (r: ApiReplica) => Promise<void>) {
  let done = false;
  const finished = work.finally(() => (done = true));
  let i = 0;
  while (!done) {
    await poll(api(i));
    i += 1;
  }
  await finished;
  for (const replica of stack.apis) await poll(replica);
}

describe('Two API and two worker replicas of the certificate service', () => {
  it('a rate limit is one budget for both APIs: the 429 comes at the same total count', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < KEYHOLDER_LIMIT + 2; i += 1) {
      const res = await api(i).t.http.get('/api/v1/keyholder/keys?login=alice');
      statuses.push(res.status);
    }
    expect(statuses.slice(0, KEYHOLDER_LIMIT)).not.toContain(429);
    // Per-process counters would let each replica allow the whole limit again.
    expect(statuses.slice(KEYHOLDER_LIMIT)).toEqual([429, 429]);
  });

  it('revocations on both APIs at once: every CRL number is used once, rising by one per revocation', async () => {
    const devices = await enrollMany(6);
    const serials = await approve(
      api(1),
      devices.map((d) => d.requestId),
    );
    const log = new PublicationLog();
    const poll = async (replica: ApiReplica) => {
      const res = await getBytes(replica, '/pki/issuing-ca.crl');
      expect(res.status).toBe(200);
      log.add(replica.name, crlOf(res.body as Buffer).number, res.body as Buffer);
    };
    await poll(api(0));
    const initial = log.seen[0].number;

    await observeWhile(
      Promise.all(
        serials.map((serial, i) =>
          api(i)
            .t.http.post(`/api/v1/certificates/${serial}/revoke`)
            .set(...bearer(admin))
            .send({ reason: 'keyCompromise' })
            .expect(200),
        ),
      ),
      poll,
    );

    log.expectConsistent();
    const final = await getBytes(api(0), '/pki/issuing-ca.crl');
    const crl = crlOf(final.body as Buffer);
    // One publication per revocation: no number reused by two replicas, none skipped.
    expect(crl.number).toBe(initial + BigInt(serials.length));
    expect(crl.revokedSerials.sort()).toEqual(serials.map((s) => s.toLowerCase()).sort());
  });

  it('SSH key revocations on both APIs at once: the KRL version rises, one content per version, every key in it', async () => {
    const [device] = await enrollMany(1);
    await setOwner(api(0).t, admin, device.serial, 'carol@corp.example.com');
    const made = Array.from({ length: 6 }, (_, i) => keys.make('ed25519', `carol@host${i}`));
    const registered = [];
    for (const [i, key] of made.entries()) {
      const { id } = await registerKey(api(i).t, device, key.publicLine);
      await adminKeyAction(api(i + 1).t, admin, id, 'approve');
      registered.push(id);
    }
    const log = new PublicationLog();
    let last: Buffer = Buffer.alloc(0);
    const poll = async (replica: ApiReplica) => {
      const res = await getBytes(replica, '/api/v1/ssh/krl');
      expect(res.status).toBe(200);
      last = res.body as Buffer;
      log.add(replica.name, BigInt(String(res.headers['x-krl-version'])), last);
    };
    await poll(api(0));
    const initial = log.seen[0].number;
    const revoked = registered.slice(0, 5);

    await observeWhile(
      Promise.all(revoked.map((id, i) => adminKeyAction(api(i).t, admin, id, 'revoke'))),
      poll,
    );

    log.expectConsistent();
    const finalVersion = log.seen[log.seen.length - 1].number;
    expect(finalVersion).toBeGreaterThanOrEqual(initial + BigInt(revoked.length));
    // The last KRL served holds every revoked key and not the kept one (OpenSSH reads it).
    for (const key of made.slice(0, 5)) {
      expect(sshKeygenQueryKrl(last, [key.publicLine]).status).toBe(1);
    }
    expect(sshKeygenQueryKrl(last, [made[5].publicLine]).status).toBe(0);
  });

  it('SCEP: approvals on both APIs wait at the CA; the leading worker polls each request exactly as often as the CA needs, then it is issued once', async () => {
    await putProfile(api(0).t, admin, 'wifi', {
      kind: 'scep',
      url: scepCa.url,
      ca_fingerprint: sha256Fingerprint(scepCa.caCertificateDer),
    }).expect(200);
    try {
      await issuerSeenBy(api(1), 'scep');
      const devices = await enrollMany(4);
      const rows = await Promise.all(
        devices.map(async (d, i) => {
          const res = await api(i)
            .t.http.post('/api/v1/requests/approve')
            .set(...bearer(admin))
            .send({ request_ids: [d.requestId] })
            .expect(200);
          return (res.body as { results: { status: string }[] }).results[0];
        }),
      );
      expect(rows.map((r) => r.status)).toEqual(devices.map(() => 'ca_pending'));
      const ids = devices.map((d) => d.requestId);
      // The CA's transactions, one per request (sent by the approving API).
      const transactions = scepCa.received
        .filter((m) => m.messageType === '19')
        .map((m) => m.transactionId);
      expect(new Set(transactions).size).toBe(devices.length);

      await waitFor(
        async () => {
          const { rows: states } = await db.query<{ status: string; certificates: number }>(
            `SELECT status, (SELECT count(*)::int FROM certificates c WHERE c.request_id = r.id) AS certificates
               FROM certificate_requests r WHERE id = ANY($1::uuid[])`,
            [ids],
          );
          expect(states).toEqual(ids.map(() => ({ status: 'issued', certificates: 1 })));
        },
        { timeoutMs: 30_000, intervalMs: 250, what: 'every SCEP request issued' },
      );
      // One PKCSReq (the approval) and two CertPolls (PENDING, then SUCCESS) per request: two
      // pollers would have polled some twice in a period, and a duplicate request could make
      // the CA issue a surplus certificate.
      for (const tx of transactions) {
        expect({ tx, requests: scepCa.count('19', tx), polls: scepCa.count('20', tx) }).toEqual({
          tx,
          requests: 1,
          polls: 2,
        });
      }
    } finally {
      // Back to the built-in CA for the flows that follow.
      await putProfile(api(0).t, admin, 'wifi', { kind: 'built_in' }).expect(200);
      await issuerSeenBy(api(1), 'built_in');
    }
  });

  // Up to 180 s: the dead leader's lease (30 s), and a send timed out on a loaded machine is
  // retried after the 30 s back-off.
  it('one API and the leading worker killed (SIGKILL) mid-flow: every enrollment approved and issued once, every webhook delivered', async () => {
    // Periodic work runs on the leader only: one worker exports task runs, the other none.
    const leader = await waitFor(
      () => {
        const leading = stack.workers.filter((w) => taskRuns(w).length > 0);
        expect(leading).toHaveLength(1);
        return leading[0];
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'one worker running the periodic tasks' },
    );
    const follower = stack.workers.find((w) => w !== leader) as WorkerReplica;
    expect(taskRuns(follower)).toEqual([]);
    const [, doomedApi] = stack.apis;

    const COUNT = 16;
    const devices = await Promise.all(
      Array.from({ length: COUNT }, (_, i) =>
        balanced(i, (r) => {
          const serial = uniqueSerial('KIL');
          return enrollDevice(r.t, { serial, csr: inProcessCsr(serial) });
        }),
      ),
    );
    const receivedBefore = receiver.received.length;
    // Approvals one request per call, four at a time, alternating replicas. API 2 is killed
    // after the second answer (two calls still in flight), the leading worker once the
    // receiver sees the storm's first event.
    let answered = 0;
    const approvals = devices.map((d, i) => async () => {
      const row = await balanced(i, async (r) => {
        const res = await r.t.http
          .post('/api/v1/requests/approve')
          .set(...bearer(admin))
          .send({ request_ids: [d.requestId] })
          .expect(200);
        return (res.body as { results: { status: string }[] }).results[0];
      });
      answered += 1;
      if (answered === 2) await doomedApi.process.kill();
      return row;
    });
    let storming = true;
    const killLeader = waitFor(
      async () => {
        if (storming && receiver.received.length <= receivedBefore) throw new Error('not yet');
        await leader.process.kill();
      },
      { timeoutMs: 30_000, intervalMs: 20, what: 'the first webhook of the storm' },
    );
    const rows: { status: string }[] = [];
    try {
      for (let i = 0; i < approvals.length; i += 4) {
        rows.push(...(await Promise.all(approvals.slice(i, i + 4).map((run) => run()))));
      }
    } finally {
      // (a failed storm still ends the waiting)
      storming = false;
      await killLeader;
    }
    expect((await doomedApi.process.ended).signal).toBe('SIGKILL');
    expect((await leader.process.ended).signal).toBe('SIGKILL');
    expect(cut.filter((name) => name !== doomedApi.name)).toEqual([]);
    // A call cut by the kill may have committed: its retry then finds the request decided.
    expect(rows.filter((r) => r.status !== 'issued').length).toBeLessThanOrEqual(1);

    // Nothing lost, nothing twice: every request issued with exactly one certificate.
    const ids = devices.map((d) => d.requestId);
    const { rows: issued } = await db.query<{ status: string; certificates: number }>(
      `SELECT r.status, (SELECT count(*)::int FROM certificates c WHERE c.request_id = r.id) AS certificates
         FROM certificate_requests r WHERE r.id = ANY($1::uuid[])`,
      [ids],
    );
    expect(issued).toEqual(ids.map(() => ({ status: 'issued', certificates: 1 })));

    // The follower takes the lead and delivers the rest; the dead leader's claims expire.
    await waitFor(
      async () => {
        const { rows: left } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered'`,
        );
        expect(left[0].n).toBe(0);
      },
      { timeoutMs: 90_000, intervalMs: 250, what: 'every webhook delivered' },
    );
    // The follower leads from its next tick (when the storm was quick, the dead leader may have
    // sent every webhook first); its spans arrive with the exporter's next batch.
    await waitFor(() => expect(taskRuns(follower).length).toBeGreaterThan(0), {
      timeoutMs: 60_000,
      intervalMs: 250,
      what: 'the follower running the periodic tasks',
    });
    const { rows: deliveries } = await db.query<{
      id: string;
      event_type: string;
      request_id: string | null;
    }>(
      `SELECT id::text, event_type, payload->'data'->>'request_id' AS request_id FROM webhook_deliveries`,
    );
    // Every delivery reached the receiver (a resend after the kill carries the same key).
    expect(new Set(receiver.unique('/hooks').map((r) => r.delivery))).toEqual(
      new Set(deliveries.map((d) => d.id)),
    );
    for (const type of ['request.created', 'request.approved', 'certificate.issued']) {
      const of = deliveries.filter(
        (d) => d.event_type === type && ids.includes(d.request_id ?? ''),
      );
      expect({ type, count: of.length }).toEqual({ type, count: COUNT });
    }
  }, 180_000);
});

/** The spans of periodic-task runs (`task.name`) a worker exported. */
const taskRuns = (worker: WorkerReplica, task?: string) =>
  worker.traces.spans.filter(
    (s) =>
      s.attributes['task.name'] !== undefined &&
      (task === undefined || s.attributes['task.name'] === task),
  );

/** Replicas whose connection was cut or refused (no HTTP answer) while `balanced` sent. */
const cut: string[] = [];

/**
 * Sends through the replica `i` picks, as a load balancer does: a request that gets no HTTP
 * answer (connection refused or cut: the replica died) goes to the next live replica. Each
 * such replica is recorded in `cut`; the test expects only the one it killed there.
 */
async function balanced<T>(i: number, send: (replica: ApiReplica) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < stack.apis.length; attempt += 1) {
    const replica = api(i + attempt);
    if (!replica.process.running()) continue;
    try {
      return await send(replica);
    } catch (error) {
      if ((error as { response?: unknown }).response !== undefined) throw error;
      // Node's socket errors come from outside Jest's realm: not `instanceof Error` here.
      const message = String((error as { message?: unknown }).message);
      if (!/ECONNREFUSED|ECONNRESET|EPIPE|socket hang up/.test(message)) throw error;
      cut.push(replica.name);
    }
  }
  throw new Error('no live API replica');
}

/** `GET path` of a binary answer, the bytes in `body`. */
function getBytes(replica: ApiReplica, path: string) {
  return replica.t.http
    .get(path)
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
}
