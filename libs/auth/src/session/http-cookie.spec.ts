import { type CookieShape, readCookie, serializeCookie } from './http-cookie';

const maxAge: CookieShape = {
  name: 'findsvc_refresh',
  path: '/api/v1/auth',
  sameSite: 'Strict',
  lifetime: 'max-age',
  maxValueLength: 512,
};
const expires: CookieShape = { ...maxAge, name: 'certsvc_refresh_token', lifetime: 'expires' };
const lifetime = { maxAgeSeconds: 60, expiresAt: new Date('2030-01-02T03:04:05Z') };

describe('session cookies', () => {
  it('writes Max-Age or Expires, scoped, httpOnly, with SameSite and optional Secure', () => {
    expect(serializeCookie(maxAge, 'abc', lifetime, true)).toBe(
      'findsvc_refresh=abc; Max-Age=60; Path=/api/v1/auth; HttpOnly; SameSite=Strict; Secure',
    );
    expect(serializeCookie(expires, 'abc', lifetime, false)).toBe(
      'certsvc_refresh_token=abc; Expires=Wed, 02 Jan 2030 03:04:05 GMT; Path=/api/v1/auth; HttpOnly; SameSite=Strict',
    );
  });

  it('clears with an empty value that expired at the epoch', () => {
    expect(serializeCookie(maxAge, null, null, false)).toBe(
      'findsvc_refresh=; Max-Age=0; Path=/api/v1/auth; HttpOnly; SameSite=Strict; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    );
    expect(serializeCookie(expires, null, null, true)).toBe(
      'certsvc_refresh_token=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/api/v1/auth; HttpOnly; SameSite=Strict; Secure',
    );
  });

  it('reads only a well-formed value of its own name', () => {
    expect(readCookie(maxAge, 'a=1; findsvc_refresh=tok_1-2 ; b=2')).toBe('tok_1-2');
    expect(readCookie(maxAge, 'findsvc_refresh=bad value')).toBeUndefined();
    expect(readCookie(maxAge, `findsvc_refresh=${'x'.repeat(513)}`)).toBeUndefined();
    expect(readCookie(maxAge, 'other=1')).toBeUndefined();
    expect(readCookie(maxAge, undefined)).toBeUndefined();
  });
});
