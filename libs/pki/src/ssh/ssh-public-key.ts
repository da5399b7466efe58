import { createHash, createPublicKey } from 'node:crypto';
import { PkiError } from '../pki.errors';
import { SshReader, SshWriter } from './ssh-wire';

/** Subject key types the service certifies (PROTOCOL.certkeys). */
export const SSH_KEY_TYPES = [
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'ssh-rsa',
] as const;
export type SshKeyType = (typeof SSH_KEY_TYPES)[number];

export const SSH_RSA_MIN_BITS = 2048;
export const SSH_RSA_MAX_BITS = 16384;
/** Longest accepted text form (an RSA-16384 authorized_keys line is about 2 800 characters). */
export const MAX_SSH_PUBLIC_KEY_TEXT = 16_000;

const EC_CURVES = {
  'ecdsa-sha2-nistp256': { name: 'nistp256', jwk: 'P-256', coordinateBytes: 32 },
  'ecdsa-sha2-nistp384': { name: 'nistp384', jwk: 'P-384', coordinateBytes: 48 },
  'ecdsa-sha2-nistp521': { name: 'nistp521', jwk: 'P-521', coordinateBytes: 66 },
} as const;

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A parsed, validated OpenSSH public key (never a certificate). */
export interface SshPublicKey {
  readonly type: SshKeyType;
  /** The wire blob: `string type` followed by the key fields. */
  readonly blob: Buffer;
  /** `SHA256:<base64 without padding>`, as `ssh-keygen -l` prints it. */
  readonly fingerprint: string;
  /** Raw SHA-256 of the blob (KRL fingerprint sections). */
  readonly sha256: Buffer;
  /** DER SubjectPublicKeyInfo of the same key (licence identity, key pinning). */
  readonly spkiDer: Buffer;
  readonly keyAlgorithm: 'ed25519' | 'ec' | 'rsa';
  readonly bits: number;
  /** Comment of the authorized_keys line, when one was given. */
  readonly comment: string | null;
}

function isSupported(type: string): type is SshKeyType {
  return (SSH_KEY_TYPES as readonly string[]).includes(type);
}

function unsupported(type: string): PkiError {
  const hint = type.endsWith('-cert-v01@openssh.com')
    ? 'a certificate is not a public key'
    : type.startsWith('sk-')
      ? 'security-key (FIDO) keys are registered as raw keys, not certified'
      : `supported: ${SSH_KEY_TYPES.join(', ')}`;
  return new PkiError(
    'ssh_key_type_unsupported',
    `SSH key type ${type} is not supported (${hint})`,
    {
      key_type: type,
    },
  );
}

function invalid(problem: string): PkiError {
  return new PkiError('ssh_key_invalid', `SSH public key is malformed: ${problem}`);
}

function spkiOf(jwk: Record<string, string>): Buffer {
  try {
    return createPublicKey({ key: jwk, format: 'jwk' }).export({ format: 'der', type: 'spki' });
  } catch {
    throw invalid('the key is not a valid point or modulus');
  }
}

function rsaBits(modulus: Buffer): number {
  return modulus.length === 0 ? 0 : (modulus.length - 1) * 8 + (32 - Math.clz32(modulus[0]));
}

/** Reads and validates a public key wire blob (`string type` + key fields). */
export function parseSshPublicKeyBlob(blob: Buffer, comment: string | null = null): SshPublicKey {
  const reader = new SshReader(blob, 'ssh_key_invalid', 'SSH public key');
  const type = reader.name();
  if (!isSupported(type)) throw unsupported(type);
  let spkiDer: Buffer;
  let bits: number;
  let keyAlgorithm: SshPublicKey['keyAlgorithm'];
  if (type === 'ssh-ed25519') {
    const key = reader.string();
    if (key.length !== 32) throw invalid('an Ed25519 key has 32 bytes');
    spkiDer = Buffer.concat([ED25519_SPKI_PREFIX, key]);
    bits = 256;
    keyAlgorithm = 'ed25519';
  } else if (type === 'ssh-rsa') {
    const e = reader.mpint();
    const n = reader.mpint();
    bits = rsaBits(n);
    if (e.length === 0 || e.length > 8 || (e[e.length - 1] & 1) === 0) {
      throw invalid('bad RSA public exponent');
    }
    if (bits < SSH_RSA_MIN_BITS || bits > SSH_RSA_MAX_BITS) {
      throw new PkiError(
        'ssh_key_type_unsupported',
        `RSA keys must have ${SSH_RSA_MIN_BITS} to ${SSH_RSA_MAX_BITS} bits, this one has ${bits}`,
        { key_type: type, bits },
      );
    }
    spkiDer = spkiOf({ kty: 'RSA', n: n.toString('base64url'), e: e.toString('base64url') });
    keyAlgorithm = 'rsa';
  } else {
    const curve = EC_CURVES[type];
    if (reader.name() !== curve.name) throw invalid(`curve does not match ${type}`);
    const point = reader.string();
    const size = curve.coordinateBytes;
    if (point.length !== 1 + 2 * size || point[0] !== 0x04) {
      throw invalid('the EC point must be uncompressed');
    }
    spkiDer = spkiOf({
      kty: 'EC',
      crv: curve.jwk,
      x: point.subarray(1, 1 + size).toString('base64url'),
      y: point.subarray(1 + size).toString('base64url'),
    });
    bits = curve.jwk === 'P-521' ? 521 : size * 8;
    keyAlgorithm = 'ec';
  }
  reader.end();
  const copy = Buffer.from(blob);
  const sha256 = createHash('sha256').update(copy).digest();
  return {
    type,
    blob: copy,
    fingerprint: `SHA256:${sha256.toString('base64').replace(/=+$/, '')}`,
    sha256,
    spkiDer,
    keyAlgorithm,
    bits,
    comment,
  };
}

/**
 * Reads a public key as an agent sends it: an authorized_keys line `type base64 [comment]`
 * (the type must match the blob) or the bare base64 blob. Options before the type and
 * certificates are refused.
 */
export function parseSshPublicKey(text: string): SshPublicKey {
  if (text.length > MAX_SSH_PUBLIC_KEY_TEXT) throw invalid('too long');
  const trimmed = text.trim();
  if (trimmed.length === 0) throw invalid('empty');
  if (/[\r\n\0]/.test(trimmed)) throw invalid('one key on one line expected');
  const parts = trimmed.split(/[ \t]+/);
  const looksLikeBlob = (s: string) => /^[A-Za-z0-9+/]+={0,2}$/.test(s) && s.length % 4 === 0;
  let typeText: string | undefined;
  let blobText: string;
  let comment: string | null = null;
  if (parts.length === 1) {
    blobText = parts[0];
  } else {
    typeText = parts[0];
    blobText = parts[1];
    comment = parts.length > 2 ? parts.slice(2).join(' ') : null;
    if (!/^[\x21-\x7e]{1,64}$/.test(typeText) || !looksLikeBlob(blobText)) {
      throw invalid('expected "<type> <base64> [comment]" (options are not accepted)');
    }
    if (!isSupported(typeText)) throw unsupported(typeText);
  }
  if (!looksLikeBlob(blobText)) throw invalid('bad base64');
  const key = parseSshPublicKeyBlob(Buffer.from(blobText, 'base64'), comment);
  if (typeText !== undefined && typeText !== key.type) {
    throw invalid(`the line says ${typeText} but the key is ${key.type}`);
  }
  return key;
}

/** The authorized_keys form `type base64 [comment]`. */
export function formatSshPublicKey(blob: Buffer, comment?: string): string {
  const type = new SshReader(blob, 'ssh_key_invalid', 'SSH public key').name();
  return `${type} ${blob.toString('base64')}${comment ? ` ${comment}` : ''}`;
}

/** The blob of an Ed25519 public key from its 32 raw bytes. */
export function ed25519PublicKeyBlob(raw: Buffer): Buffer {
  return new SshWriter(51).string('ssh-ed25519').string(raw).toBuffer();
}

/** The key fields of a blob (everything after the type string): the certificate's `pk` part. */
export function keyFieldsOf(blob: Buffer): Buffer {
  return blob.subarray(4 + blob.readUInt32BE(0));
}
