import { createPublicKey, verify } from 'node:crypto';
import {
  parseListedCertificate,
  SSH_KEYGEN_TYPES,
  sshKeygenKey,
  sshKeygenListCertificate,
  type SshKeygenKind,
} from '../testing/ssh-keygen';
import { PkiError } from '../pki.errors';
import { generateSshCaMaterial, SshUserCa } from './ssh-ca';
import { formatSshCertificate, type SshCertificateFields } from './ssh-certificate';
import { parseSshPublicKey } from './ssh-public-key';
import { SshReader } from './ssh-wire';

const kek = Buffer.alloc(32, 9);
const ca = SshUserCa.open(generateSshCaMaterial(kek), kek);
const validAfter = new Date('2026-12-01T09:55:00Z');
const validBefore = new Date('2026-12-02T10:00:00Z');

function fields(publicKeyText: string, extra: Partial<SshCertificateFields> = {}) {
  return {
    publicKey: parseSshPublicKey(publicKeyText),
    serial: 42n,
    keyId: 'certsvc:0b5a1e7e-0000-4000-8000-000000000001:SN-1',
    principals: ['alice', 'deploy'],
    validAfter,
    validBefore,
    ...extra,
  };
}

describe('buildSshCertificate (read back by ssh-keygen -L)', () => {
  it.each(Object.keys(SSH_KEYGEN_TYPES) as SshKeygenKind[])(
    'certifies a %s key with the fields asked for',
    (kind) => {
      const key = sshKeygenKey(kind);
      const cert = ca.issue(fields(key.publicKey));
      expect(cert.certType).toBe(`${SSH_KEYGEN_TYPES[kind].type}-cert-v01@openssh.com`);
      const listed = parseListedCertificate(sshKeygenListCertificate(formatSshCertificate(cert)));
      expect(listed).toEqual({
        type: `${cert.certType} user certificate`,
        keyId: 'certsvc:0b5a1e7e-0000-4000-8000-000000000001:SN-1',
        serial: 42n,
        validFrom: '2026-12-01T09:55:00',
        validTo: '2026-12-02T10:00:00',
        principals: ['alice', 'deploy'],
        criticalOptions: [],
        extensions: ['permit-agent-forwarding', 'permit-port-forwarding', 'permit-pty'],
        signingCa: `ED25519 ${ca.fingerprint} (using ssh-ed25519)`,
      });
    },
  );

  it('signs with the CA key: the signature verifies over the body', () => {
    const cert = ca.issue(fields(sshKeygenKey('ed25519').publicKey));
    const reader = new SshReader(cert.blob, 'ssh_certificate_invalid', 'cert');
    // Walk to the signature: type, nonce, pk, serial, type, key id, principals, dates,
    // options, extensions, reserved, signature key.
    reader.string();
    reader.string();
    reader.string();
    reader.uint64();
    reader.uint32();
    for (let i = 0; i < 2; i++) reader.string();
    reader.uint64();
    reader.uint64();
    for (let i = 0; i < 4; i++) reader.string();
    const bodyLength = cert.blob.length - reader.remaining;
    const signature = new SshReader(reader.string(), 'ssh_certificate_invalid', 'sig');
    expect(signature.name()).toBe('ssh-ed25519');
    const raw = signature.string();
    const caKey = createPublicKey({
      key: Buffer.concat([
        Buffer.from('302a300506032b6570032100', 'hex'),
        ca.publicKeyBlob.subarray(19),
      ]),
      format: 'der',
      type: 'spki',
    });
    expect(verify(null, cert.blob.subarray(0, bodyLength), caKey, raw)).toBe(true);
  });

  it('writes critical options and chosen extensions in lexical order', () => {
    const cert = ca.issue(
      fields(sshKeygenKey('ed25519').publicKey, {
        criticalOptions: [
          { name: 'source-address', value: '10.0.0.0/8' },
          { name: 'force-command', value: '/usr/bin/true' },
        ],
        extensions: ['permit-pty', 'permit-agent-forwarding'],
      }),
    );
    const listed = parseListedCertificate(sshKeygenListCertificate(formatSshCertificate(cert)));
    expect(listed.criticalOptions).toEqual([
      'force-command /usr/bin/true',
      'source-address 10.0.0.0/8',
    ]);
    expect(listed.extensions).toEqual(['permit-agent-forwarding', 'permit-pty']);
  });

  it.each([
    ['no principal', { principals: [] }],
    ['a principal with a comma', { principals: ['a,b'] }],
    ['a principal with a space', { principals: ['a b'] }],
    ['serial 0', { serial: 0n }],
    ['a serial above 2^64-1', { serial: 1n << 64n }],
    ['an empty key id', { keyId: '' }],
    ['a key id with a newline', { keyId: 'a\nb' }],
    ['validBefore before validAfter', { validBefore: new Date('2026-11-30T00:00:00Z') }],
  ])('refuses %s', (_name, extra) => {
    const key = sshKeygenKey('ed25519').publicKey;
    expect(() => ca.issue(fields(key, extra as Partial<SshCertificateFields>))).toThrow(PkiError);
  });
});

describe('SshUserCa', () => {
  it('opens only with the right key-encryption key and matching public key', () => {
    const material = generateSshCaMaterial(kek);
    expect(SshUserCa.open(material, kek).authorizedKey()).toMatch(
      /^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]+ certsvc-ssh-user-ca$/,
    );
    expect(() => SshUserCa.open(material, Buffer.alloc(32, 1))).toThrow(
      expect.objectContaining({ code: 'ca_key_decrypt_failed' }),
    );
    const other = generateSshCaMaterial(kek);
    expect(() => SshUserCa.open({ ...material, publicKeyBlob: other.publicKeyBlob }, kek)).toThrow(
      expect.objectContaining({ code: 'ssh_ca_material_invalid' }),
    );
  });

  it('never keeps the clear private key in the material', () => {
    const material = generateSshCaMaterial(kek);
    expect(material.encryptedPrivateKey).toMatch(
      /^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/,
    );
    expect(material.encryptedPrivateKey).not.toContain('MC4CAQAw');
  });
});
