import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { recoverMessage, verifyAkProof, verifyContinuityProof } from './recover-proof';

const pem = (key: KeyObject) => key.export({ format: 'pem', type: 'spki' }).toString();

describe('recoverMessage', () => {
  it('is the tag, key, serial and nonce joined by single NUL bytes', () => {
    expect(recoverMessage('ak', 'SN-1', 'abc').toString('hex')).toBe(
      Buffer.from('certsvc-token-recover/v1\0ak\0SN-1\0abc', 'utf8').toString('hex'),
    );
    expect(recoverMessage('continuity', 'SN-1', 'abc')).not.toEqual(
      recoverMessage('ak', 'SN-1', 'abc'),
    );
  });
});

describe('verifyContinuityProof', () => {
  const message = recoverMessage('continuity', 'SN-1', 'nonce-1');

  it.each([
    ['ECDSA P-256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }), 'sha256', {}],
    ['ECDSA P-384', () => generateKeyPairSync('ec', { namedCurve: 'P-384' }), 'sha256', {}],
    ['RSA PKCS#1 v1.5', () => generateKeyPairSync('rsa', { modulusLength: 2048 }), 'sha256', {}],
    [
      'RSA PSS',
      () => generateKeyPairSync('rsa', { modulusLength: 2048 }),
      'sha256',
      { padding: 6, saltLength: 32 },
    ],
    [
      'an RSA-PSS key',
      () => generateKeyPairSync('rsa-pss', { modulusLength: 2048 }),
      'sha256',
      { padding: 6, saltLength: 32 },
    ],
    ['Ed25519', () => generateKeyPairSync('ed25519'), null, {}],
  ] as const)('accepts %s over the message and refuses it elsewhere', (_l, make, hash, opts) => {
    const { publicKey, privateKey } = make();
    const signature = sign(hash, message, { key: privateKey, ...opts });
    expect(verifyContinuityProof(pem(publicKey), message, signature)).toEqual({ ok: true });
    const other = recoverMessage('continuity', 'SN-2', 'nonce-1');
    expect(verifyContinuityProof(pem(publicKey), other, signature)).toEqual({
      ok: false,
      cause: 'signature_invalid',
    });
    const stranger = make().publicKey;
    expect(verifyContinuityProof(pem(stranger), message, signature)).toEqual({
      ok: false,
      cause: 'signature_invalid',
    });
  });

  it('refuses garbage signatures without throwing', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    for (const junk of [Buffer.alloc(0), Buffer.from([0x30, 0x02, 0x01]), Buffer.alloc(600, 1)]) {
      expect(verifyContinuityProof(pem(publicKey), message, junk)).toEqual({
        ok: false,
        cause: 'signature_invalid',
      });
    }
  });

  it('refuses a pinned key it cannot read or does not accept', () => {
    expect(verifyContinuityProof('not a key', message, Buffer.alloc(64))).toEqual({
      ok: false,
      cause: 'pinned_key_unreadable',
    });
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const signature = sign('sha256', message, small.privateKey);
    expect(verifyContinuityProof(pem(small.publicKey), message, signature)).toEqual({
      ok: false,
      cause: 'pinned_key_unsupported',
    });
    const x25519 = generateKeyPairSync('x25519').publicKey;
    expect(verifyContinuityProof(pem(x25519), message, Buffer.alloc(64))).toEqual({
      ok: false,
      cause: 'pinned_key_unsupported',
    });
  });
});

describe('verifyAkProof', () => {
  it('refuses a pinned value that is not a TPM2B_PUBLIC', () => {
    expect(verifyAkProof(Buffer.from([1, 2]), Buffer.from('m'), Buffer.alloc(72))).toEqual({
      ok: false,
      cause: 'pinned_key_unreadable',
    });
  });
});
