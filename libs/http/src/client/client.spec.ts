import { MemoryRateLimiter } from './rate-limiter';
import { TrustedProxies } from './client-address';

describe('TrustedProxies', () => {
  it('ignores X-Forwarded-For from untrusted peers', () => {
    expect(new TrustedProxies([]).clientAddress('10.0.0.5', '1.2.3.4')).toBe('10.0.0.5');
  });
  it('believes trusted proxies and stops at the first untrusted hop', () => {
    const t = new TrustedProxies(['10.0.0.0/8', '::1']);
    expect(t.clientAddress('::ffff:10.0.0.5', '9.9.9.9, 1.2.3.4, 10.1.1.1')).toBe('1.2.3.4');
    expect(t.clientAddress('::1', '5.6.7.8')).toBe('5.6.7.8');
  });
  it('rejects malformed entries', () => {
    expect(() => new TrustedProxies(['not-an-ip'])).toThrow(/TRUSTED_PROXIES/);
  });
});

describe('MemoryRateLimiter', () => {
  it('allows up to the limit per window', async () => {
    const rl = new MemoryRateLimiter();
    const results = [];
    for (let i = 0; i < 4; i++) results.push((await rl.hit('k', 3, 60)).allowed);
    expect(results).toEqual([true, true, true, false]);
    expect((await rl.hit('other', 3, 60)).allowed).toBe(true);
  });
});
