import { sha256Hex } from '@platform/auth';
import { expiryOf, isServiceAccountToken, issueServiceAccountToken } from './service-account-token';

describe('service-account tokens', () => {
  it('issues wca_ tokens whose SHA-256 is what gets stored', () => {
    const issued = issueServiceAccountToken();
    expect(issued.token).toMatch(/^wca_[A-Za-z0-9_-]{43}$/);
    expect(issued.hash).toBe(sha256Hex(issued.token));
    expect(issued.token.startsWith(issued.displayPrefix)).toBe(true);
    expect(isServiceAccountToken(issued.token)).toBe(true);
    expect(isServiceAccountToken('eyJhbGciOi')).toBe(false);
  });

  it('never expires for 0 days', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(expiryOf(at, 0)).toBeNull();
    expect(expiryOf(at, 2)?.toISOString()).toBe('2026-01-03T00:00:00.000Z');
  });
});
