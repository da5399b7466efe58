import { PkiError } from '../pki.errors';
import { openPrivateKey, parseKeyEncryptionKey, sealPrivateKey } from './key-envelope';

function errorOf(fn: () => unknown): PkiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof PkiError) return error;
    throw error;
  }
  throw new Error('expected a PkiError');
}

describe('CA key envelope', () => {
  const key = Buffer.alloc(32, 0x11);
  const secret = Buffer.from('pkcs8 bytes of a private key');

  it('round-trips with the right key and label', () => {
    const envelope = sealPrivateKey(secret, key, 'root');
    expect(envelope).toMatch(/^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(envelope).not.toContain(secret.toString('base64url'));
    expect(openPrivateKey(envelope, key, 'root')).toEqual(secret);
    expect(sealPrivateKey(secret, key, 'root')).not.toBe(envelope);
  });

  it('fails clearly with a wrong key, another label or a damaged envelope', () => {
    const envelope = sealPrivateKey(secret, key, 'root');
    const wrongKey = Buffer.alloc(32, 0x22);
    const wrong = errorOf(() => openPrivateKey(envelope, wrongKey, 'root'));
    expect(wrong.code).toBe('ca_key_decrypt_failed');
    expect(wrong.message).toMatch(/wrong key-encryption key/);
    expect(wrong.message).not.toContain(wrongKey.toString('hex'));
    expect(errorOf(() => openPrivateKey(envelope, key, 'issuing')).code).toBe(
      'ca_key_decrypt_failed',
    );
    const parts = envelope.split(':');
    parts[3] = `A${parts[3].slice(1)}`;
    expect(errorOf(() => openPrivateKey(parts.join(':'), key, 'root')).code).toBe(
      'ca_key_decrypt_failed',
    );
    expect(errorOf(() => openPrivateKey('v2:a:b:c', key, 'root')).code).toBe(
      'ca_key_envelope_invalid',
    );
    expect(errorOf(() => openPrivateKey('garbage', key, 'root')).code).toBe(
      'ca_key_envelope_invalid',
    );
  });

  it('reads the key-encryption key from hex or base64 and refuses other sizes', () => {
    expect(parseKeyEncryptionKey('11'.repeat(32))).toEqual(key);
    expect(parseKeyEncryptionKey(key.toString('base64'))).toEqual(key);
    const bad = errorOf(() => parseKeyEncryptionKey('abcd'));
    expect(bad.code).toBe('ca_key_encryption_key_invalid');
    expect(bad.message).not.toContain('abcd');
    expect(errorOf(() => sealPrivateKey(secret, Buffer.alloc(16), 'x')).code).toBe(
      'ca_key_encryption_key_invalid',
    );
  });
});
