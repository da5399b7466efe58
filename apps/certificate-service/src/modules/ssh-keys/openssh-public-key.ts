import { createHash, createPublicKey } from 'node:crypto';
import { parseSshPublicKey, PkiError, SSH_KEY_TYPES } from '@platform/pki';

/**
 * FIDO security-key types (`ssh-keygen -t ed25519-sk|ecdsa-sk`): the typical hardware-backed
 * raw key. They are registered, never certified, so `@platform/pki`'s certificate-subject
 * parser refuses them and this file reads them itself.
 */
export const SECURITY_KEY_TYPES = [
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
] as const;

/**
 * Key types a device may register: the certifiable types of `@platform/pki` (Ed25519, ECDSA
 * P-256/384/521 as TPM and Secure Enclave keys are, RSA 2048-16384) plus the FIDO types. DSA,
 * short RSA and certificates are refused as unsupported.
 */
export const SUPPORTED_SSH_KEY_TYPES = [...SSH_KEY_TYPES, ...SECURITY_KEY_TYPES] as const;
export type RegistrableSshKeyType = (typeof SUPPORTED_SSH_KEY_TYPES)[number];

/** Longest authorized_keys line accepted (a 16384-bit RSA key is about 2.8 KB). */
export const MAX_PUBLIC_KEY_LINE = 8192;
export const MAX_COMMENT_LENGTH = 255;

export interface OpenSshPublicKey {
  type: RegistrableSshKeyType;
  /** Wire-format blob (what the authorized_keys line carries in base64). */
  blob: Buffer;
  /** `SHA256:` + unpadded base64, as `ssh-keygen -l` prints it. */
  fingerprint: string;
  /** Comment of the line, null when absent. */
  comment: string | null;
}

export type OpenSshKeyProblem = 'malformed' | 'unsupported_type';

export class OpenSshKeyError extends Error {
  constructor(
    readonly problem: OpenSshKeyProblem,
    message: string,
  ) {
    super(message);
  }
}

function malformed(message: string): OpenSshKeyError {
  return new OpenSshKeyError('malformed', `SSH public key is malformed: ${message}`);
}

/** `SHA256:` + unpadded base64 of SHA-256 over the blob. */
export function sshFingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * Parses one authorized_keys-style line `<type> <base64 blob> [comment]` (no options) or a bare
 * blob. Throws `OpenSshKeyError` (`malformed` or `unsupported_type`).
 */
export function parseOpenSshPublicKey(line: string): OpenSshPublicKey {
  if (line.length > MAX_PUBLIC_KEY_LINE) throw malformed('public key line is too long');
  const trimmed = line.trim();
  if (/[\r\n\0]/.test(trimmed)) throw malformed('public key must be a single line');
  const first = trimmed.split(/[ \t]+/)[0] ?? '';
  const key = (SECURITY_KEY_TYPES as readonly string[]).includes(first)
    ? parseSecurityKey(trimmed)
    : parseCertifiable(trimmed);
  if (key.comment !== null) {
    if (key.comment.length > MAX_COMMENT_LENGTH) throw malformed('comment is too long');
    // eslint-disable-next-line no-control-regex
    if (/[\x00-\x1f\x7f]/.test(key.comment)) throw malformed('comment holds control characters');
  }
  return key;
}

function parseCertifiable(text: string): OpenSshPublicKey {
  try {
    const key = parseSshPublicKey(text);
    const comment = key.comment?.trim() ?? '';
    return {
      type: key.type,
      blob: key.blob,
      fingerprint: key.fingerprint,
      comment: comment === '' ? null : comment,
    };
  } catch (error) {
    if (error instanceof PkiError && error.code === 'ssh_key_type_unsupported') {
      throw new OpenSshKeyError('unsupported_type', error.message);
    }
    if (error instanceof PkiError) throw new OpenSshKeyError('malformed', error.message);
    throw error;
  }
}

/** `sk-ssh-ed25519@openssh.com` / `sk-ecdsa-sha2-nistp256@openssh.com` (PROTOCOL.u2f). */
function parseSecurityKey(text: string): OpenSshPublicKey {
  const match = /^(\S+)[ \t]+([A-Za-z0-9+/]+={0,2})(?:[ \t]+(.*))?$/.exec(text);
  if (!match || match[2].length % 4 !== 0) throw malformed('expected "<type> <base64> [comment]"');
  const [, type, base64, rawComment] = match;
  const blob = Buffer.from(base64, 'base64');
  if (blob.toString('base64') !== base64) throw malformed('bad base64');
  const reader = new WireReader(blob);
  if (reader.text() !== type) throw malformed(`the line says ${type} but the key is not`);
  if (type === 'sk-ssh-ed25519@openssh.com') {
    const key = reader.bytes();
    if (key.length !== 32) throw malformed('an Ed25519 key has 32 bytes');
    importJwk({ kty: 'OKP', crv: 'Ed25519', x: key.toString('base64url') });
  } else {
    if (reader.text() !== 'nistp256') throw malformed('curve does not match the key type');
    const point = reader.bytes();
    if (point.length !== 65 || point[0] !== 0x04)
      throw malformed('the EC point must be uncompressed');
    importJwk({
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    });
  }
  const application = reader.text();
  if (application.length === 0 || application.length > 255) {
    throw malformed('the FIDO application is not valid');
  }
  reader.end();
  const comment = rawComment?.trim() ?? '';
  return {
    type: type as RegistrableSshKeyType,
    blob,
    fingerprint: sshFingerprint(blob),
    comment: comment === '' ? null : comment,
  };
}

function importJwk(jwk: Record<string, string>): void {
  try {
    createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    throw malformed('the key is not a valid point');
  }
}

/** Reads SSH wire-format strings (uint32 length + bytes) and refuses anything out of bounds. */
class WireReader {
  private offset = 0;
  constructor(private readonly data: Buffer) {}

  bytes(): Buffer {
    if (this.offset + 4 > this.data.length) throw malformed('truncated key blob');
    const length = this.data.readUInt32BE(this.offset);
    this.offset += 4;
    if (length > this.data.length - this.offset) throw malformed('truncated key blob');
    const value = this.data.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  text(): string {
    const value = this.bytes().toString('latin1');
    if (!/^[\x21-\x7e]*$/.test(value)) throw malformed('non-ASCII name in the key blob');
    return value;
  }

  end(): void {
    if (this.offset !== this.data.length) throw malformed('trailing bytes after the key');
  }
}

/** The authorized_keys form of a blob: `<type> <base64>`. */
export function authorizedKeyOf(type: string, blob: Buffer): string {
  return `${type} ${blob.toString('base64')}`;
}
