import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  inSshTempDir,
  SSH_KEYGEN_TYPES,
  sshKeygenKey,
  type SshKeygenKind,
} from '../testing/ssh-keygen';
import { parseSshPublicKey, parseSshPublicKeyBlob } from './ssh-public-key';
import { SshWriter } from './ssh-wire';

function keygenFingerprint(line: string): string {
  return inSshTempDir((dir) => {
    const file = join(dir, 'k.pub');
    writeFileSync(file, `${line}\n`);
    return execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', file]).toString().split(' ')[1];
  });
}

describe('parseSshPublicKey', () => {
  it.each(Object.keys(SSH_KEYGEN_TYPES) as SshKeygenKind[])(
    'reads a %s authorized_keys line and its bare blob, with the fingerprint ssh-keygen prints',
    (kind) => {
      const line = sshKeygenKey(kind, 'alice@laptop').publicKey;
      const key = parseSshPublicKey(line);
      expect(key.type).toBe(SSH_KEYGEN_TYPES[kind].type);
      expect(key.comment).toBe('alice@laptop');
      expect(key.fingerprint).toBe(keygenFingerprint(line));
      expect(key.spkiDer.length).toBeGreaterThan(40);
      const bare = parseSshPublicKey(line.split(' ')[1]);
      expect(bare.blob).toEqual(key.blob);
      expect(bare.comment).toBeNull();
    },
  );

  const ed = () => sshKeygenKey('ed25519').publicKey;
  it.each<[string, () => string, string]>([
    ['an empty text', () => '   ', 'ssh_key_invalid'],
    ['garbage', () => 'not a key at all', 'ssh_key_invalid'],
    ['bad base64', () => 'ssh-ed25519 AAAA$$$$', 'ssh_key_invalid'],
    [
      'a truncated blob',
      () =>
        `ssh-ed25519 ${Buffer.from(ed().split(' ')[1], 'base64').subarray(0, 30).toString('base64')}`,
      'ssh_key_invalid',
    ],
    ['a type that contradicts the blob', () => `ssh-rsa ${ed().split(' ')[1]}`, 'ssh_key_invalid'],
    ['options before the type', () => `from="10.0.0.1" ${ed()}`, 'ssh_key_invalid'],
    ['two lines', () => `${ed()}\n${ed()}`, 'ssh_key_invalid'],
    [
      'a DSA key',
      () =>
        `ssh-dss ${new SshWriter().string('ssh-dss').string(Buffer.alloc(20, 1)).toBuffer().toString('base64')}`,
      'ssh_key_type_unsupported',
    ],
    [
      'a FIDO key',
      () =>
        `sk-ssh-ed25519@openssh.com ${new SshWriter().string('sk-ssh-ed25519@openssh.com').string(Buffer.alloc(32, 1)).string('ssh:').toBuffer().toString('base64')}`,
      'ssh_key_type_unsupported',
    ],
    [
      'a certificate',
      () =>
        `ssh-ed25519-cert-v01@openssh.com ${new SshWriter().string('ssh-ed25519-cert-v01@openssh.com').toBuffer().toString('base64')}`,
      'ssh_key_type_unsupported',
    ],
  ])('refuses %s', (_name, text, code) => {
    expect(() => parseSshPublicKey(text())).toThrow(expect.objectContaining({ code }));
  });

  it('refuses RSA below 2048 bits and EC points off the curve', () => {
    const small = inSshTempDir((dir) => {
      execFileSync('ssh-keygen', ['-t', 'rsa', '-b', '1024', '-q', '-N', '', '-f', join(dir, 'k')]);
      return execFileSync('cat', [join(dir, 'k.pub')]).toString();
    });
    expect(() => parseSshPublicKey(small)).toThrow(
      expect.objectContaining({ code: 'ssh_key_type_unsupported' }),
    );
    const blob = Buffer.from(sshKeygenKey('ecdsa-256').publicKey.split(' ')[1], 'base64');
    blob[blob.length - 1] ^= 1;
    expect(() => parseSshPublicKeyBlob(blob)).toThrow(
      expect.objectContaining({ code: 'ssh_key_invalid' }),
    );
  });

  it('refuses an Ed25519 key of the wrong size and trailing bytes', () => {
    const short = new SshWriter().string('ssh-ed25519').string(Buffer.alloc(31, 1)).toBuffer();
    expect(() => parseSshPublicKeyBlob(short)).toThrow(
      expect.objectContaining({ code: 'ssh_key_invalid' }),
    );
    const trailing = Buffer.concat([
      new SshWriter().string('ssh-ed25519').string(Buffer.alloc(32, 1)).toBuffer(),
      Buffer.from([0]),
    ]);
    expect(() => parseSshPublicKeyBlob(trailing)).toThrow(
      expect.objectContaining({ code: 'ssh_key_invalid' }),
    );
  });
});
