import { ConfigError } from '@platform/config';
import { loadCertsvcConfig } from './certsvc-config';

const BASE = {
  CERTSVC_DATABASE_URL: 'postgres://x@localhost/db',
  CERTSVC_JWT_SECRET: 's'.repeat(40),
  CERTSVC_CA_KEY_ENC_KEY: '11'.repeat(32),
};

describe('loadCertsvcConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadCertsvcConfig(BASE);
    expect(config).toMatchObject({
      port: 8080,
      logLevel: 'info',
      devMode: false,
      contentTypeEnforcement: 'reject',
      migrationLockWaitSeconds: 180,
      jwt: { accessTokenTtlSeconds: 900, generated: false },
      refreshTokenTtlDays: 14,
      rateLimits: { auth: 10, enroll: 60, agent: 120, keyholder: 600 },
      tracing: { endpoint: undefined, samplerRatio: 1 },
      localAuth: { enabled: true, adminEmail: undefined },
    });
  });

  it('reads the license vendor public key: a raw Ed25519 key, base64, optional', () => {
    expect(loadCertsvcConfig(BASE).license.vendorPublicKey).toBeUndefined();
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(
      loadCertsvcConfig({ ...BASE, CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: key }).license
        .vendorPublicKey,
    ).toBe(key);
    expect(() =>
      loadCertsvcConfig({
        ...BASE,
        CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: Buffer.alloc(31).toString('base64'),
      }),
    ).toThrow(/CERTSVC_LICENSE_VENDOR_PUBLIC_KEY must be a raw Ed25519 public key/);
    expect(() =>
      loadCertsvcConfig({ ...BASE, CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: 'not base64!' }),
    ).toThrow(/CERTSVC_LICENSE_VENDOR_PUBLIC_KEY must be base64/);
  });

  it('reads the wifi lifetime in calendar units (default 3 years)', () => {
    expect(loadCertsvcConfig(BASE).pki.wifiLifetime).toEqual({ unit: 'years', amount: 3 });
    expect(loadCertsvcConfig({ ...BASE, CERTSVC_WIFI_LIFETIME: '18mo' }).pki.wifiLifetime).toEqual({
      unit: 'months',
      amount: 18,
    });
    expect(() => loadCertsvcConfig({ ...BASE, CERTSVC_WIFI_LIFETIME: '11y' })).toThrow(
      /CERTSVC_WIFI_LIFETIME must be like 3y/,
    );
    expect(() => loadCertsvcConfig({ ...BASE, CERTSVC_WIFI_LIFETIME_DAYS: '1095' })).toThrow(
      /CERTSVC_WIFI_LIFETIME_DAYS is replaced by CERTSVC_WIFI_LIFETIME/,
    );
  });

  it('requires a JWT secret outside dev mode and generates one in dev mode', () => {
    expect(() => loadCertsvcConfig({ CERTSVC_DATABASE_URL: 'postgres://x@h/d' })).toThrow(
      /CERTSVC_JWT_SECRET is required/,
    );
    const dev = loadCertsvcConfig({
      CERTSVC_DATABASE_URL: 'postgres://x@h/d',
      CERTSVC_DEV_MODE: 'true',
    });
    expect(dev.jwt.generated).toBe(true);
    expect(dev.jwt.secret.length).toBeGreaterThanOrEqual(32);
  });

  it('reports every problem at once', () => {
    try {
      loadCertsvcConfig({
        CERTSVC_LOG_LEVEL: 'loud',
        CERTSVC_CONTENT_TYPE_ENFORCEMENT: 'maybe',
        CERTSVC_LOCAL_ADMIN_EMAIL: 'a@b.c',
        CERTSVC_TRUSTED_PROXIES: 'not-an-ip',
      });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of [
        'CERTSVC_DATABASE_URL',
        'CERTSVC_JWT_SECRET',
        'CERTSVC_LOG_LEVEL',
        'CERTSVC_CONTENT_TYPE_ENFORCEMENT',
        'CERTSVC_LOCAL_ADMIN_PASSWORD',
        'CERTSVC_TRUSTED_PROXIES',
      ]) {
        expect(problems).toContain(name);
      }
    }
  });

  it('lower-cases the local admin email', () => {
    const config = loadCertsvcConfig({
      ...BASE,
      CERTSVC_LOCAL_ADMIN_EMAIL: 'Admin@Example.COM',
      CERTSVC_LOCAL_ADMIN_PASSWORD: 'long-password',
    });
    expect(config.localAuth.adminEmail).toBe('admin@example.com');
  });
});
