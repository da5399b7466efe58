import { ConfigError, EnvReader } from '@platform/config';
import { readSsoConfig } from './sso-config';

function read(env: Record<string, string>) {
  const r = new EnvReader(env);
  const config = readSsoConfig(r);
  r.done();
  return config;
}

const corp = {
  SSO_PROVIDERS: 'corp, Partner-Idp',
  SSO_CORP_ISSUER: 'https://login.corp.example',
  SSO_CORP_CLIENT_ID: 'findings',
  SSO_CORP_CLIENT_SECRET: 'secret',
  SSO_CORP_REDIRECT_URI: 'https://findings.example/api/v1/auth/sso/corp/callback',
  SSO_CORP_LEGACY_ALIAS: 'Keycloak',
  SSO_PARTNER_IDP_ISSUER: 'https://idp.partner.example',
  SSO_PARTNER_IDP_CLIENT_ID: 'findings-partner',
  SSO_PARTNER_IDP_REDIRECT_URI: 'https://findings.example/api/v1/auth/sso/partner-idp/callback',
  SSO_PARTNER_IDP_SCOPES: 'openid email',
  SSO_PARTNER_IDP_NAME: 'Partner',
  SSO_PARTNER_IDP_ASSUME_EMAIL_VERIFIED: 'true',
};

describe('readSsoConfig', () => {
  it('is off without SSO_PROVIDERS', () => {
    expect(read({})).toEqual({ providers: [], afterLoginUrl: '/', flowTtlSeconds: 600 });
  });

  it('reads each listed provider from SSO_<ID>_* (dashes become underscores)', () => {
    const { providers } = read(corp);
    expect(providers).toEqual([
      expect.objectContaining({
        id: 'corp',
        displayName: 'corp',
        clientSecret: 'secret',
        legacyAlias: 'keycloak',
        scopes: ['openid', 'email', 'profile'],
        assumeEmailVerified: false,
      }),
      expect.objectContaining({
        id: 'partner-idp',
        displayName: 'Partner',
        clientSecret: undefined,
        scopes: ['openid', 'email'],
        assumeEmailVerified: true,
      }),
    ]);
  });

  it('refuses a segment that names two providers and incomplete providers', () => {
    expect(() => read({ ...corp, SSO_PARTNER_IDP_LEGACY_ALIAS: 'corp' })).toThrow(
      /SSO_PARTNER_IDP_LEGACY_ALIAS: "corp" names two providers/,
    );
    expect(() => read({ SSO_PROVIDERS: 'corp' })).toThrow(ConfigError);
    expect(() => read({ SSO_PROVIDERS: 'corp' })).toThrow(
      /SSO_CORP_ISSUER is required[\s\S]*SSO_CORP_REDIRECT_URI is required[\s\S]*SSO_CORP_CLIENT_ID is required/,
    );
  });
});
