import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  mode,
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

describe('device agent: enroll --tpm against a software TPM (swtpm, tpm2-tools)', () => {
  let server: AgentServer;
  let swtpm: SwtpmDevice;
  let tcti: string;

  beforeAll(async () => {
    [server, swtpm] = await Promise.all([startAgentServer(), SwtpmDevice.start()]);
    // The test TPM's TCTI (the agent drives the same TPM with its own objects).
    tcti = (swtpm as unknown as { tcti: string }).tcti;
    await server.t.http
      .post('/api/v1/settings/tpm-roots')
      .set('authorization', `Bearer ${server.adminToken}`)
      .send({ name: 'swtpm', certificate_pem: swtpm.ek.vendorRootPem })
      .expect(201);
  }, 120_000);
  afterAll(() => Promise.all([server?.close(), swtpm?.stop()]));

  it('creates the key in the TPM, attests it (activation, quote, certify) and renews with a new TPM key', async () => {
    const state = tempStateDir();
    const chain = join(state.path, '..', 'ek-chain.pem');
    writeFileSync(chain, swtpm.ek.intermediatesDer.map(toPem).join(''));
    try {
      const serial = uniqueSerial();
      const enrolling = runAgent([
        'enroll',
        ...['--server', server.url, '--serial', serial, '--state-dir', state.path],
        ...['--tpm', '--tcti', tcti, '--tpm-ek-chain', chain, '--platform', 'linux'],
      ]);
      const requestId = await pendingRequestOf(server, serial);
      await approve(server, requestId);
      const run = await enrolling;
      expect([run.code, run.stderr]).toEqual([0, '']);

      // The service verified the TPM evidence and pinned the AK; the certificate is the TPM key's.
      const [request] = await sql<{ attestation: string }>(
        server.t,
        'SELECT attestation FROM certificate_requests WHERE id = $1',
        [requestId],
      );
      expect(request.attestation).toBe('tpm');
      const [device] = await sql<{ tpm_ak_public: Buffer | null }>(
        server.t,
        'SELECT tpm_ak_public FROM devices WHERE serial = $1',
        [serial],
      );
      expect(device.tpm_ak_public).not.toBeNull();
      const tpmDir = join(state.path, 'tpm');
      expect(publicKeyOfCertificate(join(state.path, 'certificate.pem'))).toBe(
        readFileSync(join(tpmDir, 'key.spki.pem'), 'utf8'),
      );
      expect(opensslVerify(state.path)).toContain('certificate.pem: OK');
      // No software private key anywhere; the TPM's blobs 0600 in a 0700 directory.
      expect(existsSync(join(state.path, 'key.pem'))).toBe(false);
      expect(mode(tpmDir)).toBe(0o700);
      for (const file of readdirSync(tpmDir))
        expect([file, mode(join(tpmDir, file))]).toEqual([file, 0o600]);
      const status = JSON.parse(readFileSync(join(state.path, 'agent-state.json'), 'utf8'));
      expect(status).toMatchObject({ state: 'enrolled', key_storage: 'tpm' });

      // Renewal: a new key in the same TPM, attested with the pinned AK (no new activation).
      const start = Date.parse(status.not_before);
      const clock = shiftedClock(start + (Date.parse(status.not_after) - start) * 0.7 - Date.now());
      const due = await runAgent(['run', '--once', '--state-dir', state.path, '--tcti', tcti], {
        clock,
      });
      expect([due.code, due.stderr]).toEqual([0, '']);
      const renewalId = readFileSync(join(state.path, 'renewal-request-id'), 'utf8');
      await approve(server, renewalId);
      const swapped = await runAgent(['run', '--once', '--state-dir', state.path, '--tcti', tcti], {
        clock,
      });
      expect([swapped.code, swapped.stderr]).toEqual([0, '']);
      const [renewal] = await sql<{ attestation: string }>(
        server.t,
        'SELECT attestation FROM certificate_requests WHERE id = $1',
        [renewalId],
      );
      expect(renewal.attestation).toBe('tpm');
      const renewedKey = publicKeyOfCertificate(join(state.path, 'certificate.pem'));
      expect(renewedKey).not.toBe(readFileSync(join(tpmDir, 'key.spki.pem'), 'utf8'));
      expect(renewedKey).toBe(readFileSync(join(tpmDir, 'renewal-key.spki.pem'), 'utf8'));
      expect(existsSync(join(tpmDir, 'renewal-key.priv'))).toBe(false);
      expect(opensslVerify(state.path)).toContain('certificate.pem: OK');
    } finally {
      state.remove();
    }
  });

  it('a TPM that cannot be reached ends with exit 6 and the failing tpm2-tools command', async () => {
    const state = tempStateDir();
    try {
      const run = await runAgent([
        'enroll',
        ...['--server', server.url, '--serial', uniqueSerial(), '--state-dir', state.path],
        ...['--tpm', '--tcti', 'swtpm:host=127.0.0.1,port=1'],
      ]);
      expect(run.code).toBe(6);
      expect(run.stderr).toMatch(/^certsvc-agent: TPM: tpm2_\w+ failed: /);
    } finally {
      state.remove();
    }
  });
});
