import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
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

/** A stand-in service answering every request with 200 and a body that is no KRL. */
function garbageServer(): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', etag: '"fake"' });
    res.end('<html>captive portal</html>');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * The shipped KRL refresher (tools/keyholder/certsvc-krl-refresh) against the key-holder API,
 * and real sshd with `RevokedKeys` = the KRL it keeps. The key is also in a local
 * authorized_keys file, so only the KRL can refuse it once the service revokes it.
 */
describe('Target server - the KRL refresher and sshd RevokedKeys', () => {
  let t: TestApp;
  let admin: string;
  let keys: SshKeyMaker;
  let server: TargetServer;
  let url: string;
  let etagFile: string;

  beforeAll(async () => {
    t = await startEnrollApp();
    await t.app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    admin = (await loginAdmin(t)).accessToken;
    keys = new SshKeyMaker();
    server = new TargetServer(url);
    etagFile = `${server.krl}.etag`;
  });
  afterAll(async () => {
    server?.cleanup();
    keys?.cleanup();
    await t?.close();
  });

  async function activeKey(owner: string) {
    const device = await enrollDevice(t);
    await setOwner(t, admin, device.serial, owner);
    const files = keys.make('ed25519', `${owner.split('@')[0]}@laptop`);
    const key = await registerKey(t, device, files.publicLine);
    await adminKeyAction(t, admin, key.id, 'approve');
    return { ...files, id: key.id };
  }

  /** Whether the KRL file revokes this public key (`ssh-keygen -Q`: exit 1 when revoked). */
  async function revokes(publicLine: string): Promise<boolean> {
    const file = join(server.dir, 'probe.pub');
    writeFileSync(file, `${publicLine}\n`);
    const res = await run('ssh-keygen', ['-Q', '-f', server.krl, file]);
    if (res.code !== 0 && !res.stdout.includes('REVOKED')) {
      throw new Error(`ssh-keygen -Q: ${res.code} ${res.stdout} ${res.stderr}`);
    }
    return res.stdout.includes('REVOKED');
  }

  describe('refresher', () => {
    it('installs the first KRL with its ETag, then leaves it alone on 304', async () => {
      const first = await server.refreshKrl();
      expect(first).toMatchObject({ code: 0, stderr: '' });
      expect(readFileSync(server.krl).subarray(0, 6).toString()).toBe('SSHKRL');
      const served = await t.http.get('/api/v1/keyholder/krl').expect(200);
      expect(readFileSync(etagFile, 'utf8').trim()).toBe(served.headers.etag);
      expect(statSync(server.krl).mode & 0o777).toBe(0o644);

      const inode = statSync(server.krl).ino;
      const again = await server.refreshKrl();
      expect(again).toMatchObject({ code: 0, stderr: '' });
      // 304: the file in place was not replaced (a replacement is a new inode).
      expect(statSync(server.krl).ino).toBe(inode);
    });

    it('replaces the KRL atomically once a key is revoked', async () => {
      await server.refreshKrl();
      const key = await activeKey('frank@example.com');
      expect(await revokes(key.publicLine)).toBe(false);
      const before = readFileSync(etagFile, 'utf8');
      const inode = statSync(server.krl).ino;
      await adminKeyAction(t, admin, key.id, 'revoke');

      expect(await server.refreshKrl()).toMatchObject({ code: 0 });
      expect(await revokes(key.publicLine)).toBe(true);
      expect(readFileSync(etagFile, 'utf8')).not.toBe(before);
      expect(statSync(server.krl).ino).not.toBe(inode);
    });

    it('keeps the old KRL when the service cannot be reached, refuses, or answers no KRL', async () => {
      await server.refreshKrl();
      const kept = readFileSync(server.krl);
      const garbage = await garbageServer();
      try {
        const cases: Record<string, string>[] = [
          { KEYHOLDER_URL: 'http://127.0.0.1:9', KEYHOLDER_TIMEOUT: '3' },
          { KEYHOLDER_URL: `http://127.0.0.1:${(garbage.address() as AddressInfo).port}` },
        ];
        for (const values of cases) {
          server.configure({ ...values, KEYHOLDER_KRL_FILE: server.krl });
          const res = await server.refreshKrl();
          expect(res.code).toBe(1);
          expect(res.stderr).toMatch(/kept/);
          expect(readFileSync(server.krl).equals(kept)).toBe(true);
        }
        // Outside the allowed networks: 403, the old KRL stays.
        server.configure({ KEYHOLDER_URL: url, KEYHOLDER_KRL_FILE: server.krl });
        await putSystemSettings(t, admin, { keyholder_allowed_networks: ['192.0.2.0/24'] });
        rmEtag();
        const refused = await server.refreshKrl();
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(/answered 403/);
        expect(readFileSync(server.krl).equals(kept)).toBe(true);
      } finally {
        await putSystemSettings(t, admin, {
          keyholder_allowed_networks: ['127.0.0.0/8', '::1/128'],
        });
        server.configure({ KEYHOLDER_URL: url, KEYHOLDER_KRL_FILE: server.krl });
        await new Promise((resolve) => garbage.close(resolve));
      }
      // No temporary files left behind.
      expect(readdirSync(server.dir).filter((f) => f.startsWith('.certsvc-krl'))).toEqual([]);
    });

    it('sends the server token from the token file when the gate requires one', async () => {
      await putSystemSettings(t, admin, { keyholder_token_gate: 'required' });
      try {
        rmEtag();
        const without = await server.refreshKrl();
        expect(without.code).toBe(1);
        expect(without.stderr).toMatch(/answered 401/);
        const created = await t.http
          .post('/api/v1/admin/keyholder-tokens')
          .set(...bearer(admin))
          .send({ name: 'krl-refresher' })
          .expect(201);
        server.writeToken(created.body.token as string);
        server.configure({
          KEYHOLDER_URL: url,
          KEYHOLDER_KRL_FILE: server.krl,
          KEYHOLDER_TOKEN_FILE: server.tokenFile,
        });
        expect(await server.refreshKrl()).toMatchObject({ code: 0 });
      } finally {
        await putSystemSettings(t, admin, { keyholder_token_gate: 'off' });
        server.configure({ KEYHOLDER_URL: url, KEYHOLDER_KRL_FILE: server.krl });
      }
    });
  });

  describe('sshd', () => {
    let sshd: Sshd;
    let authorizedKeys: string;
    beforeAll(async () => {
      authorizedKeys = join(server.dir, 'authorized_keys');
      writeFileSync(authorizedKeys, '');
      expect((await server.refreshKrl()).code).toBe(0);
      sshd = new Sshd(server, { revokedKeys: server.krl, authorizedKeysFile: authorizedKeys });
      await sshd.start();
    }, 60_000);
    afterAll(() => sshd?.stop());

    it('refuses a revoked key that a local authorized_keys still lists, once the KRL is refreshed', async () => {
      const key = await activeKey('grace@example.com');
      writeFileSync(authorizedKeys, `${key.publicLine}\n`);
      const accepted = await sshd.login(key.privateKey);
      expect({ ...accepted, log: accepted.code === 0 ? '' : sshd.log() }).toMatchObject({
        code: 0,
        stdout: 'ok\n',
      });

      await adminKeyAction(t, admin, key.id, 'revoke');
      // Until the refresher runs, sshd only knows the old KRL: the local file still lets it in.
      expect((await sshd.login(key.privateKey)).code).toBe(0);
      expect((await server.refreshKrl()).code).toBe(0);
      const refused = await sshd.login(key.privateKey);
      expect(refused.code).not.toBe(0);
      expect(refused.stdout).toBe('');
    }, 60_000);
  });

  /** Forget the stored ETag, so the next refresh asks for the whole KRL. */
  function rmEtag(): void {
    rmSync(etagFile, { force: true });
  }
});
