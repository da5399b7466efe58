import { sha256Hex } from '@platform/auth';
import { apiKeyPrefix, generateApiKey } from './api-key';

describe('service-account keys', () => {
  it('look like sa_<8 hex>_<secret of 32 bytes>, with the prefix and hash derivable', () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^sa_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
    expect(apiKeyPrefix(key)).toBe(prefix);
    expect(hash).toBe(sha256Hex(key));
    expect(generateApiKey().key).not.toBe(key);
  });

  it('rejects malformed keys', () => {
    for (const bad of [
      '',
      'sa_',
      'sa_XYZ12345_' + 'a'.repeat(43),
      'sa_12345678_short',
      'xx_12345678_' + 'a'.repeat(43),
    ]) {
      expect(apiKeyPrefix(bad)).toBeNull();
    }
  });
});
