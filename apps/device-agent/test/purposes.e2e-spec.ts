import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  mode,
  opensslVerify,
  pendingRequestOf,
  publicKeyOfCertificate,
  publicKeyOfKeyFile,
  runAgent,
  shiftedClock,
  sql,
  startAgentServer,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';

const DAY = 86_400_000;

/** The user half's slot directory of a person's user_mtls certificate. */
const slotOf = (user: string) =>
  `user_mtls-${createHash('sha256').update(user).digest('hex').slice(0, 16)}`;

/** The one JSON line `purposes list` prints (log records are lines too). */
const listOf = (stdout: string) =>
  JSON.parse(stdout.split('\n').find((l) => l.includes('"asked"')) ?? '{}') as {
    serial: string;
    purposes: string[];
    asked: unknown[];
  };

describe('device agent: purposes the device asks for, and the people’s certificates renewed', () => {
  let server: AgentServer;
  beforeAll(async () => {
    server = await startAgentServer();
  }, 60_000);
  afterAll(() => server?.close());

  const admin = (method: 'post' | 'put' | 'get', path: string) =>
    server.t.http[method](path).set('authorization', `Bearer ${server.adminToken}`);
  const pendingOf = async (user: string) =>
    (
      await sql<{ id: string }>(
        server.t,
        `SELECT id FROM certificate_requests WHERE user_identity = $1 AND status = 'pending'`,
        [user],
      )
    ).map((r) => r.id);

  it('purposes request -> approval -> run enrolls the person, installs the certificate (openssl verify); later passes renew it and a directive’s (injected clock)', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      const args = ['--state-dir', state.path];
      const enrolling = runAgent(['enroll', '--server', server.url, '--serial', serial, ...args]);
      await approve(server, await pendingRequestOf(server, serial));
      expect((await enrolling).code).toBe(0);
      const alice = `alice-${serial.toLowerCase()}@example.com`;
      const bob = `bob-${serial.toLowerCase()}@example.com`;

      // Bad command lines: exit 2 before anything is sent.
      const noUser = await runAgent(['purposes', 'request', 'user_mtls', ...args]);
      expect([noUser.code, noUser.stderr.split('\n')[0]]).toEqual([
        2,
        'certsvc-agent: --user is required for user_mtls (the person)',
      ]);
      const unknown = await runAgent(['purposes', 'request', 'mail', ...args]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('unknown purpose "mail"');
      expect((await runAgent(['purposes', 'frobnicate', ...args])).code).toBe(2);

      const listed = await runAgent(['purposes', 'list', ...args]);
      expect(listed.code).toBe(0);
      const before = listOf(listed.stdout);
      expect(before.serial).toBe(serial);
      expect(before.purposes).not.toContain('user_mtls');

      const asked = await runAgent([
        'purposes',
        'request',
        'user_mtls',
        '--user',
        alice,
        '--note',
        'mTLS for the build farm',
        ...args,
      ]);
      expect([asked.code, asked.stderr]).toEqual([0, '']);
      const answer = JSON.parse(
        asked.stdout.split('\n').find((l) => l.startsWith('{"status"')) ?? '{}',
      );
      expect(answer).toMatchObject({ status: 'pending', purpose: 'user_mtls' });
      const [queued] = await sql<{ status: string; note: string | null }>(
        server.t,
        'SELECT status, note FROM device_purpose_requests WHERE id = $1',
        [answer.request_id],
      );
      expect(queued).toEqual({ status: 'pending', note: 'mTLS for the build farm' });

      // wifi is the machine certificate's purpose: already allowed. vpn has no device route.
      const wifi = await runAgent(['purposes', 'request', 'wifi', ...args]);
      expect(wifi.stdout).toContain('{"status":"already_allowed","purpose":"wifi"}');
      expect((await runAgent(['purposes', 'request', 'vpn', ...args])).code).toBe(0);
      const privateKey = join(state.path, '..', 'id_test');
      writeFileSync(privateKey, '-----BEGIN OPENSSH PRIVATE KEY-----\nxx\n');
      const sshPrivate = await runAgent([
        'purposes',
        'request',
        'ssh',
        '--public-key',
        privateKey,
        ...args,
      ]);
      expect([sshPrivate.code, sshPrivate.stderr.split('\n')[0]]).toEqual([
        2,
        `certsvc-agent: --public-key ${privateKey} is a private key: give the .pub file`,
      ]);

      // Not decided yet: the pass sends nothing for alice.
      expect((await runAgent(['run', '--once', ...args])).code).toBe(0);
      expect(await pendingOf(alice)).toEqual([]);

      // The administrator approves the purpose; the next pass enrolls alice on this device.
      await admin('post', `/api/v1/devices/${serial}/purposes/user_mtls/decision`)
        .send({ decision: 'approve' })
        .expect(200);
      const allowed = await runAgent(['run', '--once', ...args]);
      expect([allowed.code, allowed.stderr]).toEqual([0, '']);
      expect(allowed.records.map((r) => r.msg)).toEqual(
        expect.arrayContaining(['purpose allowed', 'purpose requested', 'enrolled for a person']),
      );
      const [requestId] = await pendingOf(alice);
      expect(requestId).toBeDefined();
      await admin('post', `/api/v1/devices/${serial}/purposes/vpn/decision`)
        .send({ decision: 'approve' })
        .expect(200);

      // The administrator approves the certificate; the next pass installs it.
      await approve(server, requestId);
      const installed = await runAgent(['run', '--once', ...args]);
      expect([installed.code, installed.stderr]).toEqual([0, '']);
      const index = JSON.parse(readFileSync(join(state.path, 'purposes', 'index.json'), 'utf8'));
      const ask = index[`user_mtls:${alice}`] as { status: string; certificate: string };
      expect(ask.status).toBe('installed');
      expect(index.wifi).toMatchObject({
        status: 'installed',
        certificate: join(state.path, 'certificate.pem'),
      });
      expect(index.vpn).toMatchObject({ status: 'unsupported' });
      const slot = join(ask.certificate, '..');
      expect(opensslVerify(slot)).toContain('certificate.pem: OK');
      for (const file of readdirSync(slot))
        expect([file, mode(join(slot, file))]).toEqual([file, 0o600]);
      expect(mode(join(state.path, 'purposes'))).toBe(0o700);
      const list = listOf((await runAgent(['purposes', 'list', ...args])).stdout);
      expect(list.purposes).toContain('user_mtls');
      expect(list.asked).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ purpose: 'user_mtls', status: 'installed' }),
          expect.objectContaining({ purpose: 'wifi', status: 'installed' }),
        ]),
      );

      // A directive for bob, installed too (the user half's other source of certificates).
      await admin('post', `/api/v1/devices/${serial}/issuance-directives`)
        .send({ purpose: 'user_mtls', user: bob })
        .expect(201);
      expect((await runAgent(['run', '--once', ...args])).code).toBe(0);
      await approve(server, (await pendingOf(bob))[0]);
      expect((await runAgent(['run', '--once', ...args])).code).toBe(0);
      const users = join(state.path, 'users');
      const slots = readdirSync(users).filter((n) => n.startsWith('user_mtls-'));
      expect(slots).toHaveLength(2);
      const old = Object.fromEntries(
        slots.map((s) => [s, readFileSync(join(users, s, 'certificate.pem'), 'utf8')]),
      );

      // 200 days into the year: nothing due. 250 days: both renew (new key, new request).
      const early = await runAgent(['run', '--once', ...args], { clock: shiftedClock(200 * DAY) });
      expect(early.records.map((r) => r.msg)).not.toContain('user certificate renewal requested');
      const clock = shiftedClock(250 * DAY);
      const due = await runAgent(['run', '--once', ...args], { clock });
      expect([due.code, due.stderr]).toEqual([0, '']);
      expect(
        due.records.filter((r) => r.msg === 'user certificate renewal requested'),
      ).toHaveLength(2);
      for (const s of slots) {
        expect(readFileSync(join(users, s, 'certificate.pem'), 'utf8')).toBe(old[s]);
      }
      const renewals = [...(await pendingOf(alice)), ...(await pendingOf(bob))];
      expect(renewals).toHaveLength(2);
      for (const id of renewals) await approve(server, id);
      // bob's swap is interrupted by a crash: the renewed files are down, only the key moved.
      const bobSlot = join(users, slotOf(bob));
      expect(slots).toContain(slotOf(bob));
      const delivered = (
        await server.t.http
          .get(
            `/api/v1/requests/${readFileSync(join(bobSlot, 'renewal-request-id'), 'utf8')}/certificate`,
          )
          .set('x-agent-secret', readFileSync(join(bobSlot, 'renewal-agent-secret'), 'utf8'))
          .expect(200)
      ).body as { certificate_pem: string; ca_bundle_pem: string };
      writeFileSync(join(bobSlot, 'renewal-ca-bundle.pem'), delivered.ca_bundle_pem, {
        mode: 0o600,
      });
      writeFileSync(join(bobSlot, 'renewal-certificate.pem'), delivered.certificate_pem, {
        mode: 0o600,
      });
      renameSync(join(bobSlot, 'renewal-key.pem'), join(bobSlot, 'key.pem'));
      const renewed = await runAgent(['run', '--once', ...args], { clock });
      expect([renewed.code, renewed.stderr]).toEqual([0, '']);
      expect(
        renewed.records.filter((r) => r.msg === 'renewed user certificate installed'),
      ).toHaveLength(2);
      for (const s of slots) {
        const dir = join(users, s);
        expect(readFileSync(join(dir, 'certificate.pem'), 'utf8')).not.toBe(old[s]);
        expect(publicKeyOfCertificate(join(dir, 'certificate.pem'))).toBe(
          publicKeyOfKeyFile(join(dir, 'key.pem')),
        );
        expect(opensslVerify(dir)).toContain('certificate.pem: OK');
        expect(readdirSync(dir).filter((f) => f.startsWith('renewal-'))).toEqual([]);
      }
      // The service saw the renewed requests installed; the old certificates are superseded.
      const rows = await sql<{ installed: boolean; superseded: boolean }>(
        server.t,
        `SELECT r.installed_at IS NOT NULL AS installed,
                (SELECT c.superseded_at IS NOT NULL FROM certificates c
                  JOIN certificate_requests o ON o.id = c.request_id
                 WHERE o.user_identity = r.user_identity AND o.id <> r.id LIMIT 1) AS superseded
           FROM certificate_requests r WHERE r.id = ANY($1)`,
        [renewals],
      );
      expect(rows).toEqual([
        { installed: true, superseded: true },
        { installed: true, superseded: true },
      ]);
      // The renewed certificates are new (issued now): no third request.
      expect((await runAgent(['run', '--once', ...args])).code).toBe(0);
      expect([...(await pendingOf(alice)), ...(await pendingOf(bob))]).toEqual([]);
    } finally {
      state.remove();
    }
  });
});
