import { accessTokenSubject } from './access-token-policy';

const NOW = 1_800_000_000;

describe('accessTokenSubject', () => {
  it('returns sub for an access token inside its lifetime', () => {
    expect(accessTokenSubject({ typ: 'access', sub: 'u1', iat: NOW, exp: NOW + 60 }, NOW)).toBe(
      'u1',
    );
  });

  it('refuses another typ, a missing sub and tokens without exp (the shared time rule)', () => {
    expect(
      accessTokenSubject({ typ: 'refresh', sub: 'u1', iat: NOW, exp: NOW + 60 }, NOW),
    ).toBeNull();
    expect(accessTokenSubject({ typ: 'access', iat: NOW, exp: NOW + 60 }, NOW)).toBeNull();
    expect(accessTokenSubject({ typ: 'access', sub: 'u1', iat: NOW }, NOW)).toBeNull();
    expect(
      accessTokenSubject({ typ: 'access', sub: 'u1', iat: NOW - 120, exp: NOW - 60 }, NOW),
    ).toBeNull();
  });
});
