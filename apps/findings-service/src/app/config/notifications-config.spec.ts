import { EnvReader } from '@platform/config';
import { notificationWarnings, readNotificationsConfig } from './notifications-config';

const read = (env: Record<string, string>) => readNotificationsConfig(new EnvReader(env));

describe('notifications config', () => {
  it('defaults of the design: feed every 2 s, quiet 10 s, window 120 s, 32 at a time, 12 attempts from 15 s', () => {
    expect(read({})).toMatchObject({
      feedIntervalMs: 2000,
      quietSeconds: 10,
      maxWindowSeconds: 120,
      concurrency: 32,
      maxAttempts: 12,
      backoffBaseSeconds: 15,
      leaseSeconds: 30,
      reconcileIntervalMs: 30_000,
      retentionDeliveredDays: 7,
      retentionFailedDays: 30,
      publicWebUrl: null,
      obsoleteVariables: [],
    });
  });

  it('PUBLIC_WEB_URL: an http(s) URL without the trailing slash; anything else refused at start', () => {
    expect(read({ PUBLIC_WEB_URL: 'https://findings.example/' }).publicWebUrl).toBe(
      'https://findings.example',
    );
    for (const bad of ['findings.example', 'ftp://findings.example', 'javascript:alert(1)']) {
      const r = new EnvReader({ PUBLIC_WEB_URL: bad });
      readNotificationsConfig(r);
      expect(() => r.done()).toThrow(/PUBLIC_WEB_URL/);
    }
  });

  it('names each pre-0.33 channel variable that is set in a start-up warning', () => {
    const config = read({ MAXRU_NOTIFICATION_WORKERS: '4', MATTERMOST_ALLOW_LOCAL_DIAL: 'true' });
    expect(config.obsoleteVariables).toEqual([
      'MAXRU_NOTIFICATION_WORKERS',
      'MATTERMOST_ALLOW_LOCAL_DIAL',
    ]);
    const warnings = notificationWarnings(config);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^MAXRU_NOTIFICATION_WORKERS is set but no longer read/);
  });
});
