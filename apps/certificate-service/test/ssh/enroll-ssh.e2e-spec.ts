import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inSshTempDir, sshKeygenKey } from '@platform/pki/testing';
import { enrollDevice, rowCounts, sql, startEnrollApp } from '../fixtures/enroll';
import { loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { enrollSsh, prepareSshDevice } from './ssh-support';

function keygen(args: string[]): string {
  return inSshTempDir((dir) => {
    execFileSync('ssh-keygen', [...args, '-q', '-N', '', '-f', join(dir, 'k')]);
    return readFileSync(join(dir, 'k.pub'), 'utf8').trim();
  });
}

describe('Enroll SSH - /api/v1/enroll/ssh (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('creates a pending ssh request with the key blob and fingerprint, superseding the previous one', async () => {
    const device = await enrollDevice(t);
    await prepareSshDevice(t, admin, device, 'alice@corp.example.com');
    const key = sshKeygenKey('ecdsa-256', 'alice@laptop').publicKey;
    const first = await enrollSsh(t, device, key).expect(201);
    const fingerprint = inSshTempDir((dir) => {
      const file = join(dir, 'k.pub');
      writeFileSync(file, `${key}\n`);
      return execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', file])
        .toString()
        .split(' ')[1];
    });
    expect(first.body).toEqual({
      request_id: expect.any(String),
      status: 'pending',
      purpose: 'ssh',
      key_type: 'ecdsa-sha2-nistp256',
      fingerprint,
      agent_secret: expect.stringMatching(/^was_/),
    });
    const [row] = await sql<Record<string, unknown>>(
      t,
      `SELECT purpose, status, key_algorithm, requester_kind, requested_by, user_identity, csr_der
       FROM certificate_requests WHERE id = $1`,
      [first.body.request_id],
    );
    expect(row).toEqual({
      purpose: 'ssh',
      status: 'pending',
      key_algorithm: 'ec',
      requester_kind: 'device',
      requested_by: `device:${device.serial}`,
      user_identity: null,
      csr_der: Buffer.from(key.split(' ')[1], 'base64'),
    });
    const second = await enrollSsh(t, device, sshKeygenKey('ed25519').publicKey).expect(201);
    const statuses = await sql<{ id: string; status: string }>(
      t,
      `SELECT id, status FROM certificate_requests WHERE id = ANY($1::uuid[]) ORDER BY created_at`,
      [[first.body.request_id, second.body.request_id]],
    );
    expect(statuses.map((s) => s.status)).toEqual(['superseded', 'pending']);
    expect(
      t.logs
        .accessLines()
        .some((l) => l.route === '/api/v1/enroll/ssh' && l.serial === device.serial),
    ).toBe(true);
  });

  it('refuses a device without the ssh purpose, a wrong token or an unknown serial, storing nothing', async () => {
    const device = await enrollDevice(t);
    const key = sshKeygenKey('ed25519').publicKey;
    const before = await rowCounts(t);
    expect((await enrollSsh(t, device, key).expect(403)).body.code).toBe('purpose_not_assigned');
    for (const other of [
      { ...device, enrollmentToken: 'wet_nope' },
      { ...device, serial: 'UNKNOWN-SERIAL-SSH' },
    ]) {
      expect((await enrollSsh(t, other, key).expect(401)).body.code).toBe(
        'enrollment_token_invalid',
      );
    }
    expect(await rowCounts(t)).toEqual(before);
  });

  it('refuses malformed and unsupported public keys with a clear 400, storing nothing', async () => {
    const device = await enrollDevice(t);
    await prepareSshDevice(t, admin, device, 'bob@corp.example.com');
    const ed = sshKeygenKey('ed25519').publicKey;
    const blob = Buffer.from(ed.split(' ')[1], 'base64');
    const cases: [string, string, string][] = [
      ['garbage', 'this is not a key', 'ssh_key_invalid'],
      [
        'truncated blob',
        `ssh-ed25519 ${blob.subarray(0, 20).toString('base64')}`,
        'ssh_key_invalid',
      ],
      ['type contradicting the blob', `ssh-rsa ${ed.split(' ')[1]}`, 'ssh_key_invalid'],
      ['authorized_keys options', `no-pty ${ed}`, 'ssh_key_invalid'],
      ['a private key', sshKeygenKey('ed25519').privateKey, 'ssh_key_invalid'],
      ['RSA 1024', keygen(['-t', 'rsa', '-b', '1024']), 'ssh_key_type_unsupported'],
      [
        'a FIDO key type',
        `sk-ssh-ed25519@openssh.com ${ed.split(' ')[1]}`,
        'ssh_key_type_unsupported',
      ],
      ['DSA', `ssh-dss ${ed.split(' ')[1]}`, 'ssh_key_type_unsupported'],
    ];
    const before = await rowCounts(t);
    for (const [name, publicKey, code] of cases) {
      const res = await enrollSsh(t, device, publicKey);
      expect({ name, status: res.status, code: res.body.code }).toEqual({
        name,
        status: 400,
        code,
      });
      expect(res.body.message).toEqual(expect.any(String));
    }
    const tooLong = await enrollSsh(t, device, `ssh-ed25519 ${'A'.repeat(16_000)}`).expect(400);
    expect(tooLong.body.code).toBe('invalid_request');
    expect(await rowCounts(t)).toEqual(before);
  });

  it('answers 404 ssh_disabled while CERTSVC_FEATURES_SSH is off', async () => {
    const off = await startEnrollApp({ env: { CERTSVC_FEATURES_SSH: 'false' } });
    try {
      const res = await off.http
        .post('/api/v1/enroll/ssh')
        .send({
          serial: 'ANY',
          enrollment_token: 'x',
          public_key: sshKeygenKey('ed25519').publicKey,
        })
        .expect(404);
      expect(res.body.code).toBe('ssh_disabled');
      expect((await off.http.get('/api/v1/ssh/ca-public-key').expect(404)).body.code).toBe(
        'ssh_disabled',
      );
      expect((await off.http.get('/api/v1/ssh/krl').expect(404)).body.code).toBe('ssh_disabled');
      expect(await sql(off, `SELECT 1 FROM ssh_ca_material`)).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
