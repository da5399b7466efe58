import type { AddressInfo } from 'node:net';
import { enrollDevice, startEnrollApp } from '../fixtures/enroll';
import {
  adminKeyAction,
  putSystemSettings,
  registerKey,
  setOwner,
  SshKeyMaker,
} from '../fixtures/ssh-keys';
import { bearer, loginAdmin } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { run, Sshd, TargetServer } from './sshd';

/**
 * Real OpenSSH against the key-holder API: sshd on loopback logs root in by the keys the
 * shipped AuthorizedKeysCommand script (tools/keyholder/certsvc-keyholder-keys) fetches.
 * `root` is a shared account here: the principal alias `root` stands for alice.
 */
describe('Target server - sshd with the shipped AuthorizedKeysCommand (registered raw keys)', () => {
  let t: TestApp;
  let admin: string;
  let keys: SshKeyMaker;
  let server: TargetServer;
  let sshd: Sshd;
  let url: string;

  beforeAll(async () => {
    t = await startEnrollApp();
    await t.app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    admin = (await loginAdmin(t)).accessToken;
    keys = new SshKeyMaker();
    server = new TargetServer(url);
    sshd = new Sshd(server);
    await sshd.start();
    await t.http
      .post('/api/v1/admin/principal-aliases')
      .set(...bearer(admin))
      .send({ name: 'root', members: ['alice@example.com'] })
      .expect(201);
  }, 60_000);
  afterAll(async () => {
    await sshd?.stop();
    server?.cleanup();
    keys?.cleanup();
    await t?.close();
  });

  async function aliceKey() {
    const device = await enrollDevice(t);
    await setOwner(t, admin, device.serial, 'alice@example.com');
    const files = keys.make('ed25519', 'alice@laptop');
    const key = await registerKey(t, device, files.publicLine);
    return { ...files, id: key.id };
  }

  it('refuses a pending key, accepts it once approved, refuses it again once revoked', async () => {
    const key = await aliceKey();
    const pending = await sshd.login(key.privateKey);
    expect(pending.code).not.toBe(0);
    expect(pending.stdout).toBe('');

    await adminKeyAction(t, admin, key.id, 'approve');
    const approved = await sshd.login(key.privateKey);
    expect({ ...approved, log: approved.code === 0 ? '' : sshd.log() }).toMatchObject({
      code: 0,
      stdout: 'ok\n',
    });

    await adminKeyAction(t, admin, key.id, 'revoke');
    const revoked = await sshd.login(key.privateKey);
    expect(revoked.code).not.toBe(0);
    expect(revoked.stdout).toBe('');
  }, 60_000);

  it('refuses a key of a person outside the alias', async () => {
    const device = await enrollDevice(t);
    await setOwner(t, admin, device.serial, 'mallory@example.com');
    const files = keys.make('ed25519', 'mallory@laptop');
    const key = await registerKey(t, device, files.publicLine);
    await adminKeyAction(t, admin, key.id, 'approve');
    const res = await sshd.login(files.privateKey);
    expect(res.code).not.toBe(0);
  }, 60_000);

  it('sends the server token from the token file when the gate requires one', async () => {
    const key = await aliceKey();
    await adminKeyAction(t, admin, key.id, 'approve');
    await putSystemSettings(t, admin, { keyholder_token_gate: 'required' });
    try {
      // No token configured: the script gets 401, prints nothing, sshd refuses.
      expect((await sshd.login(key.privateKey)).code).not.toBe(0);

      const created = await t.http
        .post('/api/v1/admin/keyholder-tokens')
        .set(...bearer(admin))
        .send({ name: 'sshd-e2e', principals: ['root'] })
        .expect(201);
      server.writeToken(created.body.token as string);
      server.configure({ KEYHOLDER_URL: url, KEYHOLDER_TOKEN_FILE: server.tokenFile });
      const ok = await sshd.login(key.privateKey);
      expect({ ...ok, log: ok.code === 0 ? '' : sshd.log() }).toMatchObject({
        code: 0,
        stdout: 'ok\n',
      });
      // What sshd read: the script run by hand prints the key line with the token in place.
      const script = await run('/bin/sh', [server.keysCommand, '-c', server.conf, 'root'], {
        PATH: process.env.PATH,
      });
      expect(script.stdout).toContain(key.publicLine.split(' ')[1]);
    } finally {
      await putSystemSettings(t, admin, { keyholder_token_gate: 'off' });
      server.configure({ KEYHOLDER_URL: url });
    }
  }, 60_000);

  it('prints nothing and fails when the service cannot be reached (fails closed)', async () => {
    server.configure({ KEYHOLDER_URL: 'http://127.0.0.1:9', KEYHOLDER_TIMEOUT: '3' });
    try {
      const res = await run('/bin/sh', [server.keysCommand, '-c', server.conf, 'root'], {
        PATH: process.env.PATH,
      });
      expect(res.code).not.toBe(0);
      expect(res.stdout).toBe('');
    } finally {
      server.configure({ KEYHOLDER_URL: url });
    }
  });
});
