import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  opensslVerify,
  pendingRequestOf,
  publicKeyOfCertificate,
  runAgent,
  shiftedClock,
  sql,
  startAgentServer,
  SwtpmDevice,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';

const toPem = (der: Buffer) =>
  `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`;

const readState = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'agent-state.json'), 'utf8')) as Record<string, string>;

describe('device agent: source-auth strict, the continuity key and token recovery (swtpm)', () => {
  let server: AgentServer;
  let swtpm: SwtpmDevice;
  let tcti: string;

  const admin = (path: string) =>
    server.t.http.post(path).set('authorization', `Bearer ${server.adminToken}`);

  beforeAll(async () => {
    [server, swtpm] = await Promise.all([startAgentServer(), SwtpmDevice.start()]);
    tcti = (swtpm as unknown as { tcti: string }).tcti;
    await admin('/api/v1/settings/tpm-roots')
      .send({ name: 'swtpm', certificate_pem: swtpm.ek.vendorRootPem })
      .expect(201);
    await server.t.http
      .put('/api/v1/settings/enroll-source-auth')
      .set('authorization', `Bearer ${server.adminToken}`)
      .send({ mode: 'strict' })
      .expect(200);
  }, 120_000);
  afterAll(() => Promise.all([server?.close(), swtpm?.stop()]));

  it('refuses a software-key agent under strict: exit 3, one clear line, nothing stored', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      const run = await runAgent([
        ...['enroll', '--server', server.url, '--serial', serial, '--state-dir', state.path],
        ...['--platform', 'linux'],
      ]);
      expect(run.code).toBe(3);
      expect(run.stderr).toBe(
        `certsvc-agent: the service's source-auth policy refused the enrollment of ${serial} ` +
          '(enroll_source_auth_failed): under `strict` a Linux or Windows device must enroll ' +
          'with --tpm (a TPM-resident key with attestation); a device whose TPM or continuity ' +
          'key is pinned must present the same one (an administrator can release the pin)\n',
      );
      expect(readState(state.path).state).toBe('key_generated');
      const rows = await sql(server.t, 'SELECT 1 FROM devices WHERE serial = $1', [serial]);
      expect(rows).toHaveLength(0);
    } finally {
      state.remove();
    }
  });

  it('a TPM agent enrolls and renews under strict with a TPM continuity key; a lost token is recovered with it, a rotated one with the AK', async () => {
    const state = tempStateDir();
    const chain = join(state.path, '..', 'ek-chain.pem');
    writeFileSync(chain, swtpm.ek.intermediatesDer.map(toPem).join(''));
    try {
      const serial = uniqueSerial();
      const enrolling = runAgent([
        ...['enroll', '--server', server.url, '--serial', serial, '--state-dir', state.path],
        ...['--tpm', '--tcti', tcti, '--tpm-ek-chain', chain, '--platform', 'linux'],
      ]);
      const requestId = await pendingRequestOf(server, serial);
      await approve(server, requestId);
      expect(await enrolling).toMatchObject({ code: 0, stderr: '' });
      const tpmDir = join(state.path, 'tpm');
      const continuity = readFileSync(join(tpmDir, 'continuity.spki.pem'), 'utf8');
      const facts = async (id: string) =>
        (
          await sql<{ source_auth: string; continuity_key: string }>(
            server.t,
            `SELECT r.source_auth, d.continuity_key FROM certificate_requests r
              JOIN devices d ON d.id = r.device_id WHERE r.id = $1`,
            [id],
          )
        )[0];
      // The continuity key lives in the TPM (no software copy) and the service pinned it.
      expect(await facts(requestId)).toEqual({
        source_auth: 'tpm_attested',
        continuity_key: expect.stringContaining(continuity.split('\n')[1]),
      });
      expect(() => readFileSync(join(state.path, 'continuity-key.pem'))).toThrow();
      expect(opensslVerify(state.path)).toContain('certificate.pem: OK');

      // The stored token is lost: the renewal is refused, the token recovered with the
      // continuity key, the renewal sent again (strict: signed, attested).
      rmSync(join(state.path, 'enrollment-token'));
      const status = readState(state.path);
      const start = Date.parse(status.not_before);
      const clock = shiftedClock(start + (Date.parse(status.not_after) - start) * 0.7 - Date.now());
      const pass = () =>
        runAgent(['run', '--once', '--state-dir', state.path, '--tcti', tcti], { clock });
      const due = await pass();
      expect([due.code, due.stderr]).toEqual([0, '']);
      expect(due.records).toContainEqual(
        expect.objectContaining({ msg: 'enrollment token recovered', key: 'continuity' }),
      );
      const renewalId = readFileSync(join(state.path, 'renewal-request-id'), 'utf8');
      expect((await facts(renewalId)).source_auth).toBe('tpm_attested');
      await approve(server, renewalId);
      expect((await pass()).code).toBe(0);
      expect(readState(state.path)).toMatchObject({ state: 'enrolled', request_id: renewalId });
      expect(publicKeyOfCertificate(join(state.path, 'certificate.pem'))).toBe(
        readFileSync(join(tpmDir, 'renewal-key.spki.pem'), 'utf8'),
      );
      expect(opensslVerify(state.path)).toContain('certificate.pem: OK');

      // An administrator rotated the token and released the continuity key: the stored token
      // is refused, the continuity key proves nothing any more, the AK proves the device (and
      // the enrollment pins the same continuity key again). The clock is still in the window.
      await admin(`/api/v1/devices/${serial}/rotate-enrollment-token`).expect(200);
      await admin(`/api/v1/devices/${serial}/release-continuity-key`).expect(200);
      const third = await pass();
      expect([third.code, third.stderr]).toEqual([0, '']);
      const recovery = third.records.filter((r) => /token recover/.test(r.msg as string));
      expect(recovery.map((r) => [r.msg, r.key])).toEqual([
        ['token recovery refused', 'continuity'],
        ['enrollment token recovered', 'ak'],
      ]);
      const thirdId = readFileSync(join(state.path, 'renewal-request-id'), 'utf8');
      expect(await facts(thirdId)).toEqual({
        source_auth: 'tpm_attested',
        continuity_key: expect.stringContaining(continuity.split('\n')[1]),
      });
    } finally {
      state.remove();
    }
  });
});
