import { EnvReader } from '@platform/config';
import { readOidcConfig } from './oidc-config';

function read(env: Record<string, string>) {
  const r = new EnvReader(env);
  const config = readOidcConfig(r);
  r.done();
  return config;
}

describe('readOidcConfig', () => {
  it('is off unless an issuer or client id is named', () => {
    expect(read({})).toBeUndefined();
  });

  it('reads a public client (no secret) with the default scopes', () => {
    expect(
      read({
        CERTSVC_OIDC_ISSUER: 'https://login.corp.example',
        CERTSVC_OIDC_CLIENT_ID: 'certificate-ui',
        CERTSVC_OIDC_REDIRECT_URIS:
          'https://certs.corp.example/auth/callback, http://localhost:5173/auth/callback',
      }),
    ).toEqual({
      id: 'oidc',
      displayName: 'Single sign-on',
      issuer: 'https://login.corp.example',
      clientId: 'certificate-ui',
      clientSecret: undefined,
      redirectUri: undefined,
      scopes: ['openid', 'email', 'profile'],
      assumeEmailVerified: false,
      redirectUris: [
        'https://certs.corp.example/auth/callback',
        'http://localhost:5173/auth/callback',
      ],
    });
    expect(
      read({
        CERTSVC_OIDC_ISSUER: 'https://login.corp.example',
        CERTSVC_OIDC_CLIENT_ID: 'certificate-ui',
        CERTSVC_OIDC_REDIRECT_URIS: 'https://certs.corp.example/auth/callback',
        CERTSVC_OIDC_ASSUME_EMAIL_VERIFIED: 'true',
      })?.assumeEmailVerified,
    ).toBe(true);
  });

  it('needs the allowed redirect URIs: absolute http(s) URLs without a fragment', () => {
    const on = { CERTSVC_OIDC_ISSUER: 'https://login.corp.example', CERTSVC_OIDC_CLIENT_ID: 'x' };
    expect(() => read(on)).toThrow(/CERTSVC_OIDC_REDIRECT_URIS is required/);
    for (const bad of ['/auth/callback', 'ftp://h/cb', 'https://h/cb#x']) {
      expect(() => read({ ...on, CERTSVC_OIDC_REDIRECT_URIS: bad })).toThrow(
        /CERTSVC_OIDC_REDIRECT_URIS: ".*" is not an absolute http\(s\) URL/,
      );
    }
  });

  it('needs both issuer and client id, and an https issuer', () => {
    expect(() => read({ CERTSVC_OIDC_CLIENT_ID: 'x' })).toThrow(/CERTSVC_OIDC_ISSUER is required/);
    expect(() =>
      read({ CERTSVC_OIDC_ISSUER: 'http://login.corp.example', CERTSVC_OIDC_CLIENT_ID: 'x' }),
    ).toThrow(/CERTSVC_OIDC_ISSUER must be an https URL/);
  });
});
