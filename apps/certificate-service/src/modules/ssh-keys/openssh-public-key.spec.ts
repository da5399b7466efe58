import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOpenSshPublicKey, sshFingerprint } from './openssh-public-key';

/** Keys made by the real ssh-keygen; fingerprints compared with what it prints. */
describe('parseOpenSshPublicKey', () => {
  let dir: string;
  const made: Record<string, { line: string; fingerprint: string }> = {};
  function keygen(name: string, args: string[]): void {
    const file = join(dir, name);
    execFileSync('ssh-keygen', ['-q', '-N', '', '-C', `${name}@host`, '-f', file, ...args]);
    const line = readFileSync(`${file}.pub`, 'utf8').trim();
    const printed = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`])
      .toString()
      .split(' ')[1];
    made[name] = { line, fingerprint: printed };
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sshkey-spec-'));
    keygen('ed', ['-t', 'ed25519']);
    keygen('p256', ['-t', 'ecdsa', '-b', '256']);
    keygen('p384', ['-t', 'ecdsa', '-b', '384']);
    keygen('p521', ['-t', 'ecdsa', '-b', '521']);
    keygen('rsa', ['-t', 'rsa', '-b', '2048']);
    keygen('rsa1024', ['-t', 'rsa', '-b', '1024']);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['ed', 'p256', 'p384', 'p521', 'rsa'])(
    'reads a %s key with the fingerprint ssh-keygen prints',
    (name) => {
      const key = parseOpenSshPublicKey(made[name].line);
      expect(key.fingerprint).toBe(made[name].fingerprint);
      expect(sshFingerprint(key.blob)).toBe(made[name].fingerprint);
      expect(key.comment).toBe(`${name}@host`);
      expect(made[name].line.startsWith(key.type)).toBe(true);
    },
  );

  it('reads FIDO security keys (sk-*) with the fingerprint ssh-keygen prints', () => {
    const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      format: 'jwk',
    });
    const lines = [
      `sk-ssh-ed25519@openssh.com ${Buffer.concat([
        str('sk-ssh-ed25519@openssh.com'),
        str(Buffer.from(ed.x!, 'base64url')),
        str('ssh:'),
      ]).toString('base64')} alice@yubikey`,
      `sk-ecdsa-sha2-nistp256@openssh.com ${Buffer.concat([
        str('sk-ecdsa-sha2-nistp256@openssh.com'),
        str('nistp256'),
        str(
          Buffer.concat([
            Buffer.from([4]),
            Buffer.from(ec.x!, 'base64url'),
            Buffer.from(ec.y!, 'base64url'),
          ]),
        ),
        str('ssh:'),
      ]).toString('base64')} alice@yubikey`,
    ];
    for (const line of lines) {
      const file = join(dir, 'sk.pub');
      writeFileSync(file, `${line}\n`);
      const printed = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', file])
        .toString()
        .split(' ')[1];
      const key = parseOpenSshPublicKey(line);
      expect(key.fingerprint).toBe(printed);
      expect(key.comment).toBe('alice@yubikey');
      expect(line.startsWith(`${key.type} `)).toBe(true);
    }
  });

  it('reads a line without comment', () => {
    const [type, b64] = made.ed.line.split(' ');
    expect(parseOpenSshPublicKey(`${type} ${b64}`).comment).toBeNull();
  });

  it('refuses RSA under 2048 bits and DSA as unsupported types', () => {
    expect(() => parseOpenSshPublicKey(made.rsa1024.line)).toThrow(
      expect.objectContaining({ problem: 'unsupported_type' }),
    );
    const blob = Buffer.concat([str('ssh-dss'), str(Buffer.alloc(20, 1))]);
    expect(() => parseOpenSshPublicKey(`ssh-dss ${blob.toString('base64')}`)).toThrow(
      expect.objectContaining({ problem: 'unsupported_type' }),
    );
  });

  it('refuses certificates as an unsupported type', () => {
    const blob = str('ssh-ed25519-cert-v01@openssh.com');
    expect(() =>
      parseOpenSshPublicKey(`ssh-ed25519-cert-v01@openssh.com ${blob.toString('base64')}`),
    ).toThrow(expect.objectContaining({ problem: 'unsupported_type' }));
  });

  it.each([
    ['empty', ''],
    ['no blob', 'ssh-ed25519'],
    ['garbage', 'hello world'],
    ['bad base64', 'ssh-ed25519 AAAA!!!!'],
    ['two lines', 'ssh-ed25519 AAAA\nssh-ed25519 AAAA'],
  ])('refuses a malformed line (%s)', (_name, line) => {
    expect(() => parseOpenSshPublicKey(line)).toThrow(
      expect.objectContaining({ problem: 'malformed' }),
    );
  });

  it('refuses a blob whose inner type differs, is truncated, has trailing bytes or a bad point', () => {
    const [, b64] = made.ed.line.split(' ');
    const blob = Buffer.from(b64, 'base64');
    const cases = [
      `ecdsa-sha2-nistp256 ${b64}`,
      `ssh-ed25519 ${blob.subarray(0, blob.length - 3).toString('base64')}`,
      `ssh-ed25519 ${Buffer.concat([blob, Buffer.from([0])]).toString('base64')}`,
      `ssh-ed25519 ${Buffer.concat([str('ssh-ed25519'), str(Buffer.alloc(31))]).toString('base64')}`,
    ];
    const p256 = Buffer.from(made.p256.line.split(' ')[1], 'base64');
    const offCurve = Buffer.from(p256);
    offCurve[offCurve.length - 1] ^= 0x01;
    cases.push(`ecdsa-sha2-nistp256 ${offCurve.toString('base64')}`);
    for (const line of cases) {
      expect(() => parseOpenSshPublicKey(line)).toThrow(
        expect.objectContaining({ problem: 'malformed' }),
      );
    }
  });

  it('refuses a comment with control characters or over 255 characters', () => {
    const [type, b64] = made.ed.line.split(' ');
    expect(() => parseOpenSshPublicKey(`${type} ${b64} a\tb\u0007`)).toThrow();
    expect(() => parseOpenSshPublicKey(`${type} ${b64} ${'x'.repeat(256)}`)).toThrow();
  });
});

function str(value: string | Buffer): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}
