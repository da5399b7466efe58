import { retryDelayMs, RETRY_MAX_MS } from './webhook-backoff';
import { endpointSecretLabel, generateSecret, openSecret, sealSecret } from './webhook-secret';
import { signedHeaders, signWebhook, verifyWebhook } from './webhook-signing';

describe('webhook signing, sealing and back-off', () => {
  const secret = 'whsec_test-secret-0123456789abcdef';
  const body = '{"id":"1","type":"webhook.test","data":{}}';
  const now = new Date('2026-11-30T02:00:00Z');

  it('signs timestamp.body with HMAC-SHA256 and a receiver verifies it', () => {
    const headers = signedHeaders({ secret, body, event: 'webhook.test', deliveryId: 'd1', now });
    expect(headers['x-certsvc-timestamp']).toBe(String(now.getTime() / 1000));
    expect(headers['x-certsvc-signature']).toBe(
      `v1=${signWebhook(secret, now.getTime() / 1000, body)}`,
    );
    const check = (over: Partial<Parameters<typeof verifyWebhook>[0]>) =>
      verifyWebhook({
        secret,
        body,
        timestamp: headers['x-certsvc-timestamp'],
        signature: headers['x-certsvc-signature'],
        now,
        ...over,
      });
    expect(check({})).toBe(true);
    expect(check({ body: body.replace('test', 'tesT') })).toBe(false);
    expect(check({ secret: `${secret}x` })).toBe(false);
    expect(check({ timestamp: String(now.getTime() / 1000 + 1) })).toBe(false);
    expect(check({ signature: headers['x-certsvc-signature'].replace('v1=', 'v2=') })).toBe(false);
    expect(check({ signature: undefined })).toBe(false);
    // A replay outside the tolerance is refused even with a valid signature.
    expect(check({ now: new Date(now.getTime() + 301_000) })).toBe(false);
    expect(check({ now: new Date(now.getTime() + 299_000) })).toBe(true);
  });

  it('seals a secret bound to its endpoint; another key or label cannot open it', () => {
    const key = Buffer.alloc(32, 7);
    const generated = generateSecret();
    expect(generated).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const sealed = sealSecret(generated, key, endpointSecretLabel('a'));
    expect(sealed).not.toContain(generated);
    expect(openSecret(sealed, key, endpointSecretLabel('a'))).toBe(generated);
    expect(openSecret(sealed, key, endpointSecretLabel('b'))).toBeUndefined();
    expect(openSecret(sealed, Buffer.alloc(32, 8), endpointSecretLabel('a'))).toBeUndefined();
    expect(openSecret('v1:garbage', key, endpointSecretLabel('a'))).toBeUndefined();
  });

  it('backs off exponentially with jitter in the upper half, capped', () => {
    expect(retryDelayMs(1, 30_000, () => 0)).toBe(15_000);
    expect(retryDelayMs(1, 30_000, () => 1)).toBe(30_000);
    expect(retryDelayMs(3, 30_000, () => 0.5)).toBe(90_000);
    expect(retryDelayMs(30, 30_000, () => 1)).toBe(RETRY_MAX_MS);
  });
});
