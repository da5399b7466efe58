import { EnvReader } from '@platform/config';
import { identityFromClaims } from './oidc-identity';
import { isLoopbackHttp, readOidcClient } from './oidc-provider-settings';
import { SealedBox } from './sealed-box';

describe('identityFromClaims', () => {
  it('joins by the trimmed, lower-cased email and keeps the name', () => {
    expect(
      identityFromClaims({
        iss: 'https://idp',
        sub: 's1',
        email: ' Ann@Corp.Example ',
        email_verified: true,
        name: 'Ann',
      }),
    ).toEqual({
      issuer: 'https://idp',
      subject: 's1',
      email: 'ann@corp.example',
      displayName: 'Ann',
    });
  });

  it('refuses a missing or unusable email, and one the provider marks unverified', () => {
    for (const email of [undefined, '', 'no-at-sign', 42]) {
      expect(() => identityFromClaims({ sub: 's', email })).toThrow(
        expect.objectContaining({ refusal: 'email_missing' }),
      );
    }
    expect(() => identityFromClaims({ sub: 's', email: 'a@b.c', email_verified: false })).toThrow(
      expect.objectContaining({ refusal: 'email_unverified' }),
    );
  });

  it('takes an address as verified only when the provider says so, or is set to assume it', () => {
    const ann = { sub: 's', email: 'ann@corp.example' };
    for (const verified of [true, 'true']) {
      expect(identityFromClaims({ ...ann, email_verified: verified }).email).toBe(ann.email);
    }
    // no claim: unverified, unless the provider's settings assume it
    expect(() => identityFromClaims(ann)).toThrow(
      expect.objectContaining({
        refusal: 'email_unverified',
        reason: expect.stringMatching(/no email_verified claim/),
      }),
    );
    expect(identityFromClaims(ann, { assumeEmailVerified: true }).email).toBe(ann.email);
    // a claim saying anything but true is never overridden
    for (const verified of [false, 'false', null, 1, 'yes']) {
      expect(() =>
        identityFromClaims({ ...ann, email_verified: verified }, { assumeEmailVerified: true }),
      ).toThrow(expect.objectContaining({ refusal: 'email_unverified' }));
    }
  });
});

describe('readOidcClient', () => {
  const names = {
    issuer: 'X_ISSUER',
    clientId: 'X_CLIENT_ID',
    clientSecret: 'X_CLIENT_SECRET',
    scopes: 'X_SCOPES',
    redirectUri: 'X_REDIRECT_URI',
    assumeEmailVerified: 'X_ASSUME_EMAIL_VERIFIED',
  };

  it('reads a provider with default scopes', () => {
    const r = new EnvReader({
      X_ISSUER: 'https://idp.example',
      X_CLIENT_ID: 'c',
      X_REDIRECT_URI: 'https://app.example/cb',
    });
    expect(readOidcClient(r, 'x', names)).toEqual({
      id: 'x',
      issuer: 'https://idp.example',
      clientId: 'c',
      clientSecret: undefined,
      redirectUri: 'https://app.example/cb',
      scopes: ['openid', 'email', 'profile'],
      assumeEmailVerified: false,
    });
    r.done();
    const assuming = new EnvReader({
      X_ISSUER: 'https://idp.example',
      X_CLIENT_ID: 'c',
      X_REDIRECT_URI: 'https://app.example/cb',
      X_ASSUME_EMAIL_VERIFIED: 'true',
    });
    expect(readOidcClient(assuming, 'x', names).assumeEmailVerified).toBe(true);
  });

  it('reports plain-HTTP issuers off loopback, scopes without openid or email, missing values', () => {
    const r = new EnvReader({
      X_ISSUER: 'http://idp.example',
      X_SCOPES: 'profile',
      X_REDIRECT_URI: 'cb',
    });
    readOidcClient(r, 'x', names);
    expect(() => r.done()).toThrow(
      /X_ISSUER must be an https URL[\s\S]*openid[\s\S]*email[\s\S]*X_REDIRECT_URI/,
    );
    expect(() => r.done()).toThrow(/X_CLIENT_ID is required/);
    expect(isLoopbackHttp('http://127.0.0.1:4000')).toBe(true);
    expect(isLoopbackHttp('http://idp.example')).toBe(false);
  });
});

describe('SealedBox', () => {
  it('round-trips a value it sealed and refuses anything altered or from another purpose', () => {
    const box = new SealedBox('secret', 'purpose');
    const sealed = box.seal({ state: 's' });
    expect(box.open(sealed)).toEqual({ state: 's' });
    const flipped = Buffer.from(sealed, 'base64url');
    flipped[flipped.length - 1] ^= 1;
    expect(box.open(flipped.toString('base64url'))).toBeNull();
    expect(new SealedBox('secret', 'other').open(sealed)).toBeNull();
    expect(box.open('short')).toBeNull();
  });
});
