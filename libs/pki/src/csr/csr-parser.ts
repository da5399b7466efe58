import { hash } from 'node:crypto';
import { contextTag, DerTag } from '../der/der-tag';
import {
  expectTag,
  readBitStringBytes,
  readChildren,
  readInteger,
  readSingle,
} from '../der/der-reader';
import { fromPem } from '../der/pem';
import { PkiError } from '../pki.errors';
import { readCsrPublicKey } from './csr-public-key';
import { readRequestedSans } from './csr-requested-sans';
import { readSignatureScheme, verifyCsrSignature } from './csr-signature';
import { readSubject } from './csr-subject';
import { ParsedCsr } from './csr.types';

/** Largest accepted CSR input (PEM or DER). An RSA-8192 CSR with SANs stays far below. */
export const MAX_CSR_BYTES = 16 * 1024;

const PEM_LABELS = ['CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST'];

function toDer(input: Buffer | string): Buffer {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.length;
  if (size > MAX_CSR_BYTES) {
    throw new PkiError('csr_too_large', `CSR exceeds ${MAX_CSR_BYTES} bytes`, { size });
  }
  if (size === 0) throw new PkiError('csr_invalid', 'CSR is empty');
  if (typeof input === 'string') return fromPem(input, PEM_LABELS);
  if (input.subarray(0, 64).toString('latin1').includes('-----BEGIN')) {
    return fromPem(input.toString('latin1'), PEM_LABELS);
  }
  return input;
}

/** Structural parse; verification errors pass through, DER errors become csr_invalid. */
function parse(der: Buffer): ParsedCsr {
  const [info, algorithm, signatureField, ...extra] = readChildren(
    expectTag(readSingle(der), DerTag.SEQUENCE, 'CertificationRequest'),
  );
  if (extra.length > 0 || !algorithm) throw new PkiError('csr_invalid', 'malformed CSR');
  const [version, subject, spki, attributes, ...rest] = readChildren(
    expectTag(info, DerTag.SEQUENCE, 'CertificationRequestInfo'),
  );
  if (readInteger(version, 'version') !== 0n)
    throw new PkiError('csr_invalid', 'CSR version must be 1');
  if (rest.length > 0 || (attributes && attributes.tag !== contextTag(0, true))) {
    throw new PkiError('csr_invalid', 'malformed CSR attributes');
  }
  expectTag(subject, DerTag.SEQUENCE, 'subject');
  const signature = readBitStringBytes(signatureField, 'signature');
  const publicKey = readCsrPublicKey(expectTag(spki, DerTag.SEQUENCE, 'SubjectPublicKeyInfo'));
  const scheme = readSignatureScheme(algorithm);
  const subjectCommonName = readSubject(subject).commonName;
  const requestedSans = readRequestedSans(attributes);
  verifyCsrSignature(scheme, publicKey, info.der, signature);
  const base = {
    der,
    subjectDer: Buffer.from(subject.der),
    publicKeySpkiDer: Buffer.from(spki.der),
    requestedSans,
    publicKeyHash: hash('sha256', spki.der, 'hex'),
    signatureAlgorithm: scheme.name,
    ...(subjectCommonName === undefined ? {} : { subjectCommonName }),
  };
  return publicKey.keyAlgorithm === 'rsa'
    ? { ...base, keyAlgorithm: 'rsa', keyBits: publicKey.keyBits }
    : { ...base, keyAlgorithm: 'ec', curve: publicKey.curve };
}

/**
 * Parses a PKCS#10 CSR (PEM or DER, at most 16 KiB) and verifies its self-signature.
 * Throws PkiError: csr_too_large, csr_invalid (garbage, truncated, trailing data, wrong
 * version), csr_algorithm_unsupported, csr_key_unsupported, csr_signature_invalid,
 * subject_invalid and san_invalid (see csr-subject.ts and csr-requested-sans.ts).
 */
export function parseCsr(input: Buffer | string): ParsedCsr {
  try {
    const der = toDer(input);
    return parse(Buffer.from(der));
  } catch (error) {
    if (error instanceof PkiError && error.code === 'der_invalid') {
      throw new PkiError('csr_invalid', `CSR is not valid DER: ${error.message}`);
    }
    throw error;
  }
}
