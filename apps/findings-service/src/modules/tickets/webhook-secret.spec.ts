import {
  hashWebhookSecret,
  newWebhookSecret,
  webhookSecretAccepted,
  type StoredWebhookSecrets,
} from './webhook-secret';

describe('webhook secret', () => {
  const now = new Date('2026-11-29T03:00:00Z');
  const current = newWebhookSecret();
  const previous = newWebhookSecret();
  const stored = (until: Date | null): StoredWebhookSecrets => ({
    current: hashWebhookSecret(current),
    previous: hashWebhookSecret(previous),
    previousValidUntil: until,
  });

  it('is 32 random bytes in base64url, a new one each time', () => {
    expect(current).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(current, 'base64url')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(current);
  });

  it('accepts the current secret and the previous one only during the grace', () => {
    const later = new Date(now.getTime() + 1000);
    const earlier = new Date(now.getTime() - 1000);
    expect(webhookSecretAccepted(current, stored(earlier), now)).toBe(true);
    expect(webhookSecretAccepted(previous, stored(later), now)).toBe(true);
    expect(webhookSecretAccepted(previous, stored(earlier), now)).toBe(false);
    expect(webhookSecretAccepted(previous, stored(null), now)).toBe(false);
  });

  it('refuses anything else, and everything when no secret was issued', () => {
    expect(webhookSecretAccepted('x', stored(null), now)).toBe(false);
    expect(webhookSecretAccepted(`${current}x`, stored(null), now)).toBe(false);
    const none = { current: null, previous: null, previousValidUntil: null };
    expect(webhookSecretAccepted(current, none, now)).toBe(false);
    expect(webhookSecretAccepted('', none, now)).toBe(false);
  });
});
