import { generateKeyPairSync } from 'node:crypto';
import { derNull } from '../der/der-primitives';
import { oid } from '../der/der-oid';
import { toPem } from '../der/pem';
import { sequence } from '../der/der-tlv';
import { Oids } from '../der/oids';
import { PkiError } from '../pki.errors';
import { ecKeyPair, flipLastByte, makeCsr, rsaKeyPair } from '../testing/csr-factory';
import { MAX_CSR_BYTES, parseCsr } from './csr-parser';

function codeOf(input: Buffer | string): string {
  try {
    parseCsr(input);
  } catch (error) {
    if (error instanceof PkiError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('parseCsr', () => {
  const ec = ecKeyPair();
  const rsa = rsaKeyPair(2048);

  it('parses and verifies an EC P-256 CSR with requested SANs', () => {
    const der = makeCsr({
      keyPair: ec,
      commonName: 'SN-0001',
      dnsNames: ['dev.example.com'],
      upn: 'a@corp',
    });
    const csr = parseCsr(toPem('CERTIFICATE REQUEST', der));
    expect(csr).toMatchObject({
      keyAlgorithm: 'ec',
      curve: 'P-256',
      subjectCommonName: 'SN-0001',
      signatureAlgorithm: 'ecdsa-with-SHA256',
      requestedSans: [
        { type: 'dns', value: 'dev.example.com' },
        { type: 'upn', value: 'a@corp' },
      ],
    });
    expect(csr.publicKeySpkiDer).toEqual(ec.publicKey.export({ format: 'der', type: 'spki' }));
    expect(csr.publicKeyHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('parses an RSA-2048 CSR given as DER', () => {
    const csr = parseCsr(makeCsr({ keyPair: rsa, commonName: 'alice' }));
    expect(csr.keyAlgorithm === 'rsa' && csr.keyBits).toBe(2048);
  });

  it('accepts a P-384 key with SHA-384 and an empty subject', () => {
    const csr = parseCsr(
      makeCsr({
        keyPair: ecKeyPair('P-384'),
        hash: 'sha384',
        algorithmIdentifier: sequence(oid(Oids.ecdsaWithSha384)),
      }),
    );
    expect(csr).toMatchObject({ curve: 'P-384' });
    expect(csr.subjectCommonName).toBeUndefined();
  });

  it('refuses garbage, truncation, trailing data, wrong version and oversize input', () => {
    const der = makeCsr({ keyPair: ec, commonName: 'x' });
    expect(codeOf(Buffer.from('not a csr at all'))).toBe('csr_invalid');
    expect(
      codeOf('-----BEGIN CERTIFICATE REQUEST-----\n!!!\n-----END CERTIFICATE REQUEST-----'),
    ).toBe('csr_invalid');
    expect(codeOf(der.subarray(0, der.length - 5))).toBe('csr_invalid');
    expect(codeOf(Buffer.concat([der, Buffer.from([0])]))).toBe('csr_invalid');
    expect(codeOf(makeCsr({ keyPair: ec, version: 1 }))).toBe('csr_invalid');
    expect(codeOf(Buffer.alloc(0))).toBe('csr_invalid');
    expect(codeOf(Buffer.alloc(MAX_CSR_BYTES + 1, 0x30))).toBe('csr_too_large');
  });

  it('refuses a CSR whose signature does not match its key', () => {
    expect(codeOf(flipLastByte(makeCsr({ keyPair: ec })))).toBe('csr_signature_invalid');
    expect(codeOf(flipLastByte(makeCsr({ keyPair: rsa })))).toBe('csr_signature_invalid');
    const otherKey = ecKeyPair();
    const mixed = makeCsr({
      keyPair: { publicKey: ec.publicKey, privateKey: otherKey.privateKey },
    });
    expect(codeOf(mixed)).toBe('csr_signature_invalid');
    const rsaClaimed = makeCsr({
      keyPair: ec,
      algorithmIdentifier: sequence(oid(Oids.sha256WithRsa), derNull()),
    });
    expect(codeOf(rsaClaimed)).toBe('csr_signature_invalid');
  });

  it('refuses unsupported keys and algorithms', () => {
    expect(codeOf(makeCsr({ keyPair: rsaKeyPair(1024) }))).toBe('csr_key_unsupported');
    expect(codeOf(makeCsr({ keyPair: ecKeyPair('secp256k1') }))).toBe('csr_key_unsupported');
    expect(codeOf(makeCsr({ keyPair: generateKeyPairSync('ed25519') }))).toBe(
      'csr_key_unsupported',
    );
    const dsa = generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 });
    expect(codeOf(makeCsr({ keyPair: dsa, hash: 'sha1' }))).toBe('csr_key_unsupported');
    const sha1 = makeCsr({
      keyPair: rsa,
      hash: 'sha1',
      algorithmIdentifier: sequence(oid('1.2.840.113549.1.1.5'), derNull()),
    });
    expect(codeOf(sha1)).toBe('csr_algorithm_unsupported');
  });
});
