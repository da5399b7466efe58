import { ConfigError } from '@platform/config';
import { loadFindingsConfig, rateLimitWarnings } from './findings-config';

const base = { DATABASE_URL: 'postgres://x@h/db', REDIS_URL: 'redis://h:1' };

describe('loadFindingsConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadFindingsConfig(base, 'api');
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      metricsPort: 9090,
      logLevel: 'info',
      logFileSinkEnabled: true,
      logDir: '/var/tmp/secplatform/logs',
      refreshTokenTtlDays: 14,
      cookieSecure: true,
      rateLimits: { api: 600, user: 300, serviceAccount: 1200, auth: 10 },
      migrationLockWaitSeconds: 180,
      localAuth: { enabled: true },
    });
    expect(c.jwt).toMatchObject({ generated: true, accessTokenTtlSeconds: 900 });
    expect(loadFindingsConfig(base, 'worker').metricsPort).toBe(9091);
  });

  it('runs the deadline check hourly (spec) unless SLA_CHECK_INTERVAL_SECONDS says otherwise', () => {
    expect(loadFindingsConfig(base, 'worker').slaCheckIntervalSeconds).toBe(3600);
    expect(
      loadFindingsConfig({ ...base, SLA_CHECK_INTERVAL_SECONDS: '5' }, 'worker')
        .slaCheckIntervalSeconds,
    ).toBe(5);
    expect(() => loadFindingsConfig({ ...base, SLA_CHECK_INTERVAL_SECONDS: '0' })).toThrow(
      /SLA_CHECK_INTERVAL_SECONDS/,
    );
  });

  it('writes log files by default (spec: LOG_FILE_SINK_ENABLED=true); false turns the sink off', () => {
    expect(
      loadFindingsConfig({ ...base, APP_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }),
    ).toMatchObject({ logFileSinkEnabled: true, logDir: '/var/tmp/secplatform/logs' });
    expect(loadFindingsConfig({ ...base, LOG_FILE_SINK_ENABLED: 'false' }).logFileSinkEnabled).toBe(
      false,
    );
    expect(() => loadFindingsConfig({ ...base, LOG_FILE_SINK_ENABLED: 'maybe' })).toThrow(
      /LOG_FILE_SINK_ENABLED/,
    );
  });

  it('requires JWT_SECRET in production and reports every problem at once', () => {
    expect(() =>
      loadFindingsConfig({ APP_ENV: 'production', LOG_LEVEL: 'loud', TRUSTED_PROXIES: 'nope' }),
    ).toThrow(ConfigError);
    try {
      loadFindingsConfig({ APP_ENV: 'production', LOG_LEVEL: 'loud', TRUSTED_PROXIES: 'nope' });
    } catch (e) {
      const text = (e as ConfigError).problems.join('\n');
      for (const name of [
        'DATABASE_URL',
        'REDIS_URL',
        'JWT_SECRET',
        'LOG_LEVEL',
        'TRUSTED_PROXIES',
      ])
        expect(text).toContain(name);
    }
  });

  it('lower-cases admin emails and needs LOCAL_ADMIN_* together', () => {
    const c = loadFindingsConfig({
      ...base,
      BOOTSTRAP_ADMIN_EMAILS: 'A@X.io, b@y.io',
      LOCAL_ADMIN_EMAIL: 'Root@X.io',
      LOCAL_ADMIN_PASSWORD: 'p',
    });
    expect(c.bootstrapAdminEmails).toEqual(['a@x.io', 'b@y.io']);
    expect(c.localAuth.adminEmail).toBe('root@x.io');
    expect(() => loadFindingsConfig({ ...base, LOCAL_ADMIN_EMAIL: 'a@x.io' })).toThrow(
      /set together/,
    );
  });
});

describe('rateLimitWarnings', () => {
  it('names both numbers when a per-identity limit exceeds the address floor', () => {
    expect(rateLimitWarnings({ api: 600, user: 300, serviceAccount: 600, auth: 10 })).toEqual([]);
    const w = rateLimitWarnings({ api: 600, user: 300, serviceAccount: 1200, auth: 10 });
    expect(w).toHaveLength(1);
    expect(w[0]).toContain('RATE_LIMIT_API_SERVICE_ACCOUNT=1200');
    expect(w[0]).toContain('RATE_LIMIT_API=600');
  });
});
