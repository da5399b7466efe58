import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { PkiError } from '../pki.errors';

export const KEY_ENCRYPTION_KEY_BYTES = 32;
const VERSION = 'v1';

/**
 * Reads the CA key-encryption key from configuration: 32 bytes given as 64 hex digits or
 * base64 (44 characters). The value never appears in error messages.
 */
export function parseKeyEncryptionKey(value: string | Buffer): Buffer {
  let key: Buffer | undefined;
  if (Buffer.isBuffer(value)) key = value;
  else if (/^[0-9a-fA-F]{64}$/.test(value.trim())) key = Buffer.from(value.trim(), 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value.trim())) key = Buffer.from(value.trim(), 'base64');
  if (!key || key.length !== KEY_ENCRYPTION_KEY_BYTES) {
    throw new PkiError(
      'ca_key_encryption_key_invalid',
      'CA key-encryption key must be 32 bytes (64 hex digits or base64)',
    );
  }
  return Buffer.from(key);
}

function checkKey(key: Buffer): void {
  if (key.length !== KEY_ENCRYPTION_KEY_BYTES) {
    throw new PkiError('ca_key_encryption_key_invalid', 'CA key-encryption key must be 32 bytes');
  }
}

/**
 * AES-256-GCM envelope `v1:<iv>:<tag>:<ciphertext>` (base64url parts, 96-bit random IV).
 * `label` is bound as additional data so an envelope cannot be swapped for another key's.
 */
export function sealPrivateKey(pkcs8Der: Buffer, key: Buffer, label: string): string {
  checkKey(key);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(label, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(pkcs8Der), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join(':');
}

export function openPrivateKey(envelope: string, key: Buffer, label: string): Buffer {
  checkKey(key);
  const parts = envelope.split(':');
  const valid =
    parts.length === 4 &&
    parts[0] === VERSION &&
    parts.slice(1).every((part) => /^[A-Za-z0-9_-]+$/.test(part));
  const iv = valid ? Buffer.from(parts[1], 'base64url') : Buffer.alloc(0);
  const tag = valid ? Buffer.from(parts[2], 'base64url') : Buffer.alloc(0);
  if (!valid || iv.length !== 12 || tag.length !== 16) {
    throw new PkiError(
      'ca_key_envelope_invalid',
      'CA key envelope is malformed or of an unknown version',
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(label, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(parts[3], 'base64url')), decipher.final()]);
  } catch {
    throw new PkiError(
      'ca_key_decrypt_failed',
      'CA private key cannot be decrypted: wrong key-encryption key or damaged envelope',
    );
  }
}
