import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SshUserCa, parseKeyEncryptionKey, type SshCaMaterial } from '@platform/pki';
import { inSshTempDir, sshKeygenDumpKrl, sshKeygenQueryKrl } from '@platform/pki/testing';
import { enrollDevice, sql, startEnrollApp } from '../fixtures/enroll';
import { SshKrl } from '../../src/modules/ssh/ssh-krl.service';
import { adminKeyAction, registerKey, setOwner, SshKeyMaker } from '../fixtures/ssh-keys';
import { loginAdmin } from '../support/sessions';
import { TEST_CA_KEY_ENC_KEY, type TestApp } from '../support/test-app';
import { servedKrl } from './ssh-support';

describe('SSH CA and KRL - /api/v1/ssh/ca-public-key, /api/v1/ssh/krl, /api/v1/keyholder/krl (GET)', () => {
  let t: TestApp;
  let admin: string;
  let keys: SshKeyMaker;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = (await loginAdmin(t)).accessToken;
    keys = new SshKeyMaker();
  });
  afterAll(async () => {
    keys.cleanup();
    await t.close();
  });

  it('serves the Ed25519 user CA generated at the first start, its private key stored only sealed', async () => {
    const json = await t.http.get('/api/v1/ssh/ca-public-key').expect(200);
    expect(json.body).toEqual({
      public_key: expect.stringMatching(
        /^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI\S+ certsvc-ssh-user-ca$/,
      ),
      key_type: 'ssh-ed25519',
      fingerprint: expect.stringMatching(/^SHA256:[A-Za-z0-9+/]{43}$/),
    });
    const text = await t.http
      .get('/api/v1/ssh/ca-public-key')
      .set('accept', 'text/plain')
      .expect(200);
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.text).toBe(`${json.body.public_key}\n`);
    // OpenSSH reads the served line and prints the same fingerprint.
    const listed = inSshTempDir((dir) => {
      const file = join(dir, 'ca.pub');
      writeFileSync(file, text.text);
      return execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', file]).toString();
    });
    expect(listed).toMatch(
      new RegExp(`^256 ${json.body.fingerprint.replace(/[+/]/g, '\\$&')} .*\\(ED25519\\)`),
    );

    const [row] = await sql<{
      format_version: number;
      public_key_blob: Buffer;
      encrypted_private_key: string;
      created_at: Date;
    }>(
      t,
      `SELECT format_version, public_key_blob, encrypted_private_key, created_at FROM ssh_ca_material`,
    );
    expect(row.public_key_blob.toString('base64')).toBe(json.body.public_key.split(' ')[1]);
    expect(row.encrypted_private_key).toMatch(/^v1:/);
    const material: SshCaMaterial = {
      formatVersion: 1,
      publicKeyBlob: row.public_key_blob,
      encryptedPrivateKey: row.encrypted_private_key,
      createdAt: row.created_at,
    };
    expect(SshUserCa.open(material, parseKeyEncryptionKey(TEST_CA_KEY_ENC_KEY)).fingerprint).toBe(
      json.body.fingerprint,
    );
    expect(() => SshUserCa.open(material, parseKeyEncryptionKey('17'.repeat(32)))).toThrow();
  });

  it('serves the KRL as cached bytes with a strong ETag and its version; 304 for the current ETag', async () => {
    const krl = await servedKrl(t);
    expect(krl.status).toBe(200);
    expect(krl.type).toBe('application/octet-stream');
    expect(krl.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(krl.version).toMatch(/^[1-9][0-9]*$/);
    // OpenSSH reads it: the magic, and a fresh key is not revoked (exit 0).
    expect(krl.bytes.subarray(0, 8).toString('latin1')).toBe('SSHKRL\n\0');
    expect(sshKeygenDumpKrl(krl.bytes).status).toBe(0);
    const fresh = keys.make();
    expect(sshKeygenQueryKrl(krl.bytes, [fresh.publicLine])).toMatchObject({ status: 0 });
    // Unchanged: same bytes, no new version; the current ETag gets an empty 304.
    const again = await servedKrl(t);
    expect(again).toMatchObject({ status: 200, etag: krl.etag, version: krl.version });
    expect(again.bytes.equals(krl.bytes)).toBe(true);
    const notModified = await servedKrl(t, krl.etag);
    expect(notModified).toMatchObject({ status: 304, etag: krl.etag, version: krl.version });
    expect(notModified.bytes.length).toBe(0);
    expect((await servedKrl(t, `W/${krl.etag}`)).status).toBe(304);
    expect((await servedKrl(t, `"0000", ${krl.etag}`)).status).toBe(304);
  });

  it('puts a revoked raw key into a new KRL version (ssh-keygen -Q: REVOKED); a stale ETag gets the new bytes', async () => {
    const device = await enrollDevice(t);
    await setOwner(t, admin, device.serial, 'carol@corp.example.com');
    const revokedKey = keys.make('ed25519', 'carol@laptop');
    const keptKey = keys.make('ecdsa', 'carol@desktop');
    const revokedId = (await registerKey(t, device, revokedKey.publicLine)).id;
    const keptId = (await registerKey(t, device, keptKey.publicLine)).id;
    await adminKeyAction(t, admin, revokedId, 'approve');
    await adminKeyAction(t, admin, keptId, 'approve');
    const before = await servedKrl(t);
    expect(sshKeygenQueryKrl(before.bytes, [revokedKey.publicLine]).status).toBe(0);

    await adminKeyAction(t, admin, revokedId, 'revoke');
    const after = await servedKrl(t, before.etag);
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(before.etag);
    expect(BigInt(after.version)).toBeGreaterThan(BigInt(before.version));
    const revoked = sshKeygenQueryKrl(after.bytes, [revokedKey.publicLine]);
    expect(revoked.status).toBe(1);
    expect(revoked.out).toContain('REVOKED');
    expect(sshKeygenQueryKrl(after.bytes, [keptKey.publicLine]).status).toBe(0);
    expect((await servedKrl(t, after.etag)).status).toBe(304);
  });

  it('serves the same bytes, ETag and version at /api/v1/keyholder/krl (behind the key-holder checks)', async () => {
    const pub = await servedKrl(t);
    const keyholder = await servedKrl(t, undefined, '/api/v1/keyholder/krl');
    expect(keyholder).toMatchObject({
      status: 200,
      type: 'application/octet-stream',
      etag: pub.etag,
      version: pub.version,
    });
    expect(keyholder.bytes.equals(pub.bytes)).toBe(true);
    expect((await servedKrl(t, pub.etag, '/api/v1/keyholder/krl')).status).toBe(304);
  });

  it('keeps the version rising across concurrent rebuilds (no version is published twice)', async () => {
    const krl = t.app.get(SshKrl);
    const start = (await krl.current()).version;
    const built = await Promise.all(Array.from({ length: 6 }, () => krl.rebuild()));
    const versions = built.map((b) => b.version).sort((a, b) => (a < b ? -1 : 1));
    expect(versions).toEqual(Array.from({ length: 6 }, (_, i) => start + BigInt(i + 1)));
    const served = await servedKrl(t);
    expect(BigInt(served.version)).toBe(start + 6n);
  });
});
