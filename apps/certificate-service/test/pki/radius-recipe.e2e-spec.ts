import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issuedDevice } from '../fixtures/issue';
import { bundleOf } from '../issuance/issuance-support';
import { bearer, loginAdmin } from '../support/sessions';
import { opensslAsync, startListeningApp, type ListeningApp } from './pki-support';

const DOC = join(__dirname, '../../../../docs/certificate-service/radius.md');

/** The fetch script exactly as docs/certificate-service/radius.md prints it. */
async function documentedScript(): Promise<string> {
  const text = await readFile(DOC, 'utf8');
  const match = /`\/usr\/local\/sbin\/certsvc-crl-fetch`:\n\n```sh\n([\s\S]*?)```/.exec(text);
  if (!match) throw new Error('fetch script not found in radius.md');
  return match[1];
}

function run(script: string, env: Record<string, string>): Promise<{ code: number; err: string }> {
  return new Promise((resolve) => {
    execFile('sh', [script], { env, timeout: 60_000 }, (error, _stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, err: stderr });
    });
  });
}

describe('RADIUS recipe - the documented CRL fetch job against the service', () => {
  let t: ListeningApp;
  let work: string;
  beforeAll(async () => {
    t = await startListeningApp();
    work = await mkdtemp(join(tmpdir(), 'certsvc-radius-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(work, { recursive: true, force: true });
  });

  it('installs both CRLs once, answers 304 afterwards, and picks up a revocation (restart only on change)', async () => {
    const admin = await loginAdmin(t);
    const { certificateSerial } = await issuedDevice(t, admin.accessToken);
    const bundle = await bundleOf(t, admin.accessToken, certificateSerial);
    const caPath = join(work, 'certsvc');
    const bin = join(work, 'bin');
    await mkdir(caPath);
    await mkdir(bin);
    await writeFile(join(caPath, 'root-ca.pem'), bundle['ca.pem']);
    await writeFile(join(caPath, 'issuing-ca.pem'), bundle['chain.pem']);
    const restarts = join(work, 'restarts.log');
    await writeFile(join(bin, 'systemctl'), `#!/bin/sh\necho "$@" >> ${restarts}\n`);
    await chmod(join(bin, 'systemctl'), 0o755);
    const script = join(work, 'certsvc-crl-fetch');
    await writeFile(script, await documentedScript());
    const env = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      CERTSVC_PKI_BASE_URL: t.baseUrl,
      CERTSVC_CA_PATH: caPath,
    };
    const restartCount = async () =>
      (await readFile(restarts, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    const verify = () =>
      opensslAsync(
        (d) => [
          'verify',
          '-crl_check_all',
          '-CApath',
          caPath,
          '-untrusted',
          join(d, 'i.pem'),
          join(d, 'c.pem'),
        ],
        { 'i.pem': bundle['chain.pem'], 'c.pem': bundle['certificate.pem'] },
      );

    expect(await run(script, env)).toMatchObject({ code: 0 });
    expect(await restartCount()).toBe(1);
    const files = await readdir(caPath);
    expect(files).toEqual(expect.arrayContaining(['issuing-ca.crl.pem', 'root-ca.crl.pem']));
    expect(files.filter((f) => /\.r0$/.test(f))).toHaveLength(2);
    expect((await verify()).out).toContain('c.pem: OK');

    // Nothing changed: 304 twice, no restart.
    expect(await run(script, env)).toMatchObject({ code: 0, err: '' });
    expect(await restartCount()).toBe(1);

    await t.http
      .post(`/api/v1/certificates/${certificateSerial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(200);
    expect(await run(script, env)).toMatchObject({ code: 0 });
    expect(await restartCount()).toBe(2);
    const after = await verify();
    expect(after.ok).toBe(false);
    expect(after.out).toContain('certificate revoked');
  });

  it('refuses a CRL its CA did not sign and keeps the installed one', async () => {
    const caPath = join(work, 'certsvc');
    const before = await readFile(join(caPath, 'issuing-ca.crl.pem'), 'utf8');
    // A foreign CA file in place of ours: the signature check must fail.
    const foreign = (
      await opensslAsync(
        (d) => [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-keyout',
          join(d, 'k.pem'),
          '-subj',
          '/CN=Device Certificate Service Issuing CA',
          '-days',
          '1',
        ],
        {},
      )
    ).out;
    const saved = await readFile(join(caPath, 'issuing-ca.pem'), 'utf8');
    await writeFile(join(caPath, 'issuing-ca.pem'), foreign);
    await rm(join(caPath, 'issuing-ca.etag'), { force: true });
    try {
      const result = await run(join(work, 'certsvc-crl-fetch'), {
        PATH: `${join(work, 'bin')}:${process.env.PATH ?? ''}`,
        CERTSVC_PKI_BASE_URL: t.baseUrl,
        CERTSVC_CA_PATH: caPath,
      });
      expect(result.code).not.toBe(0);
      expect(result.err).toContain('issuing-ca CRL: verify');
      expect(await readFile(join(caPath, 'issuing-ca.crl.pem'), 'utf8')).toBe(before);
    } finally {
      await writeFile(join(caPath, 'issuing-ca.pem'), saved);
    }
  });
});
