import { TOKEN_CLOCK_SKEW_SECONDS, tokenTimeViolation } from './token-time-claims';

const NOW = 1_800_000_000;
const SKEW = TOKEN_CLOCK_SKEW_SECONDS;

function check(claims: Record<string, unknown>) {
  return tokenTimeViolation(claims, { nowSeconds: NOW });
}

describe('tokenTimeViolation', () => {
  it('accepts a token inside its lifetime, with or without nbf', () => {
    expect(check({ iat: NOW - 5, exp: NOW + 600 })).toBeNull();
    expect(check({ iat: NOW - 5, exp: NOW + 600, nbf: NOW - 5 })).toBeNull();
  });

  it('requires exp and iat', () => {
    expect(check({ iat: NOW })).toBe('exp_missing');
    expect(check({ exp: NOW + 600 })).toBe('iat_missing');
    expect(check({})).toBe('exp_missing');
  });

  it('refuses time claims that are not finite numbers', () => {
    expect(check({ iat: NOW, exp: String(NOW + 600) })).toBe('exp_not_numeric');
    expect(check({ iat: `${NOW}`, exp: NOW + 600 })).toBe('iat_not_numeric');
    expect(check({ iat: NOW, exp: null })).toBe('exp_not_numeric');
    expect(check({ iat: NOW, exp: Infinity })).toBe('exp_not_numeric');
    expect(check({ iat: NOW, exp: NOW + 600, nbf: 'now' })).toBe('nbf_not_numeric');
    expect(check({ iat: NOW, exp: NOW + 600, nbf: NaN })).toBe('nbf_not_numeric');
  });

  it('refuses an expired token once the skew has passed', () => {
    expect(check({ iat: NOW - 600, exp: NOW - SKEW + 1 })).toBeNull();
    expect(check({ iat: NOW - 600, exp: NOW - SKEW })).toBe('expired');
    expect(check({ iat: NOW - 7200, exp: NOW - 3600 })).toBe('expired');
  });

  it('refuses iat in the future beyond the skew', () => {
    expect(check({ iat: NOW + SKEW, exp: NOW + 600 })).toBeNull();
    expect(check({ iat: NOW + SKEW + 1, exp: NOW + 600 })).toBe('issued_in_future');
  });

  it('refuses nbf in the future beyond the skew', () => {
    expect(check({ iat: NOW, exp: NOW + 600, nbf: NOW + SKEW })).toBeNull();
    expect(check({ iat: NOW, exp: NOW + 600, nbf: NOW + SKEW + 1 })).toBe('not_yet_valid');
  });

  it('refuses a token that expires before (or when) it is issued', () => {
    expect(check({ iat: NOW, exp: NOW })).toBe('expires_before_issued');
    expect(check({ iat: NOW, exp: NOW - 1 })).toBe('expires_before_issued');
  });

  it('takes another skew when given', () => {
    expect(
      tokenTimeViolation({ iat: NOW - 60, exp: NOW - 1 }, { nowSeconds: NOW, skewSeconds: 0 }),
    ).toBe('expired');
  });
});
