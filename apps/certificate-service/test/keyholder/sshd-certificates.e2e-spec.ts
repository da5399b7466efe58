import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { enrollDevice, startEnrollApp } from '../fixtures/enroll';
import { SshKeyMaker } from '../fixtures/ssh-keys';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import {
  agentCertificate,
  type AgentSshCertificate,
  approveSsh,
  enrollSsh,
  prepareSshDevice,
} from '../ssh/ssh-support';
import { Sshd, TargetServer } from './sshd';

/**
 * Real OpenSSH and SSH certificates: sshd trusts the served CA key (`TrustedUserCAKeys`) and
 * reads the KRL the shipped refresher keeps (`RevokedKeys`). `root` is a principal alias whose
 * member owns the device, so the certificate carries `root` among its principals.
 */
describe('Target server - sshd with TrustedUserCAKeys and the refreshed KRL (SSH certificates)', () => {
  let t: TestApp;
  let admin: TestUser;
  let keys: SshKeyMaker;
  let server: TargetServer;
  let sshd: Sshd;

  beforeAll(async () => {
    t = await startEnrollApp();
    await t.app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    admin = await loginAdmin(t);
    keys = new SshKeyMaker();
    server = new TargetServer(url);
    await t.http
      .post('/api/v1/admin/principal-aliases')
      .set(...bearer(admin.accessToken))
      .send({ name: 'root', members: ['alice@example.com'] })
      .expect(201);
    const ca = await t.http
      .get('/api/v1/ssh/ca-public-key')
      .set('accept', 'text/plain')
      .expect(200);
    writeFileSync(server.caKeys, ca.text, { mode: 0o644 });
    const first = await server.refreshKrl();
    if (first.code !== 0) throw new Error(`first KRL: ${first.stderr}`);
    sshd = new Sshd(server, { trustedUserCaKeys: server.caKeys, revokedKeys: server.krl });
    await sshd.start();
  }, 60_000);
  afterAll(async () => {
    await sshd?.stop();
    server?.cleanup();
    keys?.cleanup();
    await t?.close();
  });

  /** A fresh key of alice's device, certified: the private key file and its certificate file. */
  async function certifiedKey(): Promise<{
    privateKey: string;
    certFile: string;
    cert: AgentSshCertificate;
  }> {
    const device = await enrollDevice(t);
    await prepareSshDevice(t, admin, device, 'alice@example.com');
    const files = keys.make('ed25519', 'alice@laptop');
    const res = await enrollSsh(t, device, files.publicLine).expect(201);
    const request = res.body as { request_id: string; agent_secret: string };
    const [row] = await approveSsh(t, admin.accessToken, [request.request_id]);
    expect(row.status).toBe('issued');
    const issued = await agentCertificate(t, {
      device,
      requestId: request.request_id,
      agentSecret: request.agent_secret,
      publicKey: files.publicLine,
      fingerprint: files.fingerprint,
    }).expect(200);
    const cert = issued.body as AgentSshCertificate;
    // Not `<key>-cert.pub`: ssh would load that one by itself, even for the bare-key login.
    const certFile = `${files.privateKey}.certificate`;
    writeFileSync(certFile, `${cert.ssh_certificate}\n`);
    return { privateKey: files.privateKey, certFile, cert };
  }

  it('accepts a fresh certificate, and refuses the key without it', async () => {
    const { privateKey, certFile, cert } = await certifiedKey();
    expect(cert.principals).toContain('root');
    // The bare key is registered nowhere: sshd refuses it.
    expect((await sshd.login(privateKey)).code).not.toBe(0);
    const ok = await sshd.login(privateKey, certFile);
    expect({ ...ok, log: ok.code === 0 ? '' : sshd.log() }).toMatchObject({
      code: 0,
      stdout: 'ok\n',
    });
  }, 60_000);

  it('lists the revoked certificate in the feed at once, and sshd refuses it once the refresher has fetched the new KRL', async () => {
    const { privateKey, certFile, cert } = await certifiedKey();
    expect((await sshd.login(privateKey, certFile)).code).toBe(0);
    const cursor = (await t.http.get('/api/v1/keyholder/revocations').expect(200)).body
      .next_after as string;

    await t.http
      .post(`/api/v1/certificates/ssh-${cert.ssh_serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(200);
    // A session watcher learns it from the feed at once.
    const feed = await t.http.get(`/api/v1/keyholder/revocations?after=${cursor}`).expect(200);
    expect(feed.body.items).toEqual([
      expect.objectContaining({
        kind: 'certificate',
        certificate_serial: cert.ssh_serial,
        certificate_key_id: cert.key_id,
        principals: expect.arrayContaining(['root']),
      }),
    ]);
    // sshd reads the KRL file only: until the refresher runs, the old KRL lets it in.
    expect((await sshd.login(privateKey, certFile)).code).toBe(0);

    expect(await server.refreshKrl()).toMatchObject({ code: 0 });
    const refused = await sshd.login(privateKey, certFile);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(sshd.log()).toMatch(/revoked/i);
  }, 60_000);
});
