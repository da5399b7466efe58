import { readFileSync, writeFileSync } from 'node:fs';
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
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';
import { RestartableSwtpm } from './support/restartable-swtpm';

const toPem = (der: Buffer) =>
  `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`;

describe('device agent: a TPM-resident key survives a TPM restart (reboot)', () => {
  let server: AgentServer;
  let tpm: RestartableSwtpm;
  beforeAll(async () => {
    [server, tpm] = await Promise.all([startAgentServer(), RestartableSwtpm.create()]);
    await server.t.http
      .post('/api/v1/settings/tpm-roots')
      .set('authorization', `Bearer ${server.adminToken}`)
      .send({ name: 'swtpm', certificate_pem: tpm.ek.vendorRootPem })
      .expect(201);
    await tpm.powerOn();
  }, 120_000);
  afterAll(() => Promise.all([server?.close(), tpm?.remove()]));

  it('after the restart the AK and key load again from their blobs: the renewal is attested with the pinned AK', async () => {
    const state = tempStateDir();
    const chain = join(state.path, '..', 'ek-chain.pem');
    writeFileSync(chain, tpm.ek.intermediatesDer.map(toPem).join(''));
    try {
      const serial = uniqueSerial();
      const enrolling = runAgent([
        ...['enroll', '--server', server.url, '--serial', serial, '--state-dir', state.path],
        ...['--tpm', '--tcti', tpm.tcti, '--tpm-ek-chain', chain, '--platform', 'linux'],
      ]);
      await approve(server, await pendingRequestOf(server, serial));
      expect((await enrolling).code).toBe(0);
      const [pinned] = await sql<{ tpm_ak_public: Buffer }>(
        server.t,
        'SELECT tpm_ak_public FROM devices WHERE serial = $1',
        [serial],
      );

      // Power cycle: every transient object and saved context of the first run is void now.
      await tpm.powerOff();
      await tpm.powerOn();

      const status = JSON.parse(readFileSync(join(state.path, 'agent-state.json'), 'utf8'));
      const start = Date.parse(status.not_before);
      const clock = shiftedClock(start + (Date.parse(status.not_after) - start) * 0.7 - Date.now());
      const args = ['run', '--once', '--state-dir', state.path, '--tcti', tpm.tcti];
      const due = await runAgent(args, { clock });
      expect([due.code, due.stderr]).toEqual([0, '']);
      const renewalId = readFileSync(join(state.path, 'renewal-request-id'), 'utf8');
      await approve(server, renewalId);
      expect((await runAgent(args, { clock })).code).toBe(0);

      const [renewal] = await sql<{ attestation: string }>(
        server.t,
        'SELECT attestation FROM certificate_requests WHERE id = $1',
        [renewalId],
      );
      expect(renewal.attestation).toBe('tpm');
      const [device] = await sql<{ tpm_ak_public: Buffer }>(
        server.t,
        'SELECT tpm_ak_public FROM devices WHERE serial = $1',
        [serial],
      );
      expect(device.tpm_ak_public.equals(pinned.tpm_ak_public)).toBe(true);
      expect(publicKeyOfCertificate(join(state.path, 'certificate.pem'))).toBe(
        readFileSync(join(state.path, 'tpm', 'renewal-key.spki.pem'), 'utf8'),
      );
      expect(opensslVerify(state.path)).toContain('certificate.pem: OK');
    } finally {
      state.remove();
    }
  });
});
