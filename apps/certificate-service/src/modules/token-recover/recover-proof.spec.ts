import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { verifyTpmSignature } from '@platform/pki';
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

const u16 = (value: number) => {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value);
  return out;
};
const sized = (bytes: Buffer) => Buffer.concat([u16(bytes.length), bytes]);

/** TPM2B_PUBLIC of a P-256 restricted ECDSA-SHA256 signing key, as `tpm2_createak -f tss`. */
function tpmPublicOf(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const attributes = Buffer.alloc(4);
  attributes.writeUInt32BE(0x00050072); // fixedTPM fixedParent sensitiveDataOrigin userWithAuth restricted sign
  const tpmt = Buffer.concat([
    u16(0x0023), // TPM_ALG_ECC
    u16(0x000b), // nameAlg SHA-256
    attributes,
    sized(Buffer.alloc(0)), // authPolicy
    u16(0x0010), // symmetric NULL
    u16(0x0018), // scheme ECDSA
    u16(0x000b), // its hash SHA-256
    u16(0x0003), // NIST P-256
    u16(0x0010), // kdf NULL
    sized(Buffer.from(jwk.x ?? '', 'base64url')),
    sized(Buffer.from(jwk.y ?? '', 'base64url')),
  ]);
  return sized(tpmt);
}

/** TPMT_SIGNATURE (ECDSA) over `message` with `hash`, as `tpm2_sign` writes it. */
function tpmtSignature(privateKey: KeyObject, message: Buffer, hash: string, hashAlg: number) {
  const raw = sign(hash, message, { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return Buffer.concat([
    u16(0x0018),
    u16(hashAlg),
    sized(raw.subarray(0, 32)),
    sized(raw.subarray(32)),
  ]);
}

describe('verifyAkProof', () => {
  const message = recoverMessage('ak', 'SN-1', 'nonce-1');
  const ak = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pinned = tpmPublicOf(ak.publicKey);

  it('accepts a TPMT_SIGNATURE (SHA-256) and a plain DER signature by the pinned AK', () => {
    expect(
      verifyAkProof(pinned, message, tpmtSignature(ak.privateKey, message, 'sha256', 0x000b)),
    ).toEqual({ ok: true });
    expect(verifyAkProof(pinned, message, sign('sha256', message, ak.privateKey))).toEqual({
      ok: true,
    });
  });

  it('refuses another key, another message and a SHA-1 TPMT_SIGNATURE', () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    expect(verifyAkProof(pinned, message, tpmtSignature(other, message, 'sha256', 0x000b))).toEqual(
      {
        ok: false,
        cause: 'signature_invalid',
      },
    );
    const elsewhere = recoverMessage('ak', 'SN-2', 'nonce-1');
    expect(
      verifyAkProof(pinned, elsewhere, tpmtSignature(ak.privateKey, message, 'sha256', 0x000b)),
    ).toEqual({
      ok: false,
      cause: 'signature_invalid',
    });
    const sha1 = tpmtSignature(ak.privateKey, message, 'sha1', 0x0004);
    // The library would accept it (the TPM names the hash); the recovery does not.
    expect(verifyTpmSignature(ak.publicKey, message, sha1)).toBe(true);
    expect(verifyAkProof(pinned, message, sha1)).toEqual({
      ok: false,
      cause: 'signature_hash_weak',
    });
  });

  it('refuses a pinned value that is not a TPM2B_PUBLIC', () => {
    expect(verifyAkProof(Buffer.from([1, 2]), Buffer.from('m'), Buffer.alloc(72))).toEqual({
      ok: false,
      cause: 'pinned_key_unreadable',
    });
  });
});
