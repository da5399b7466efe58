import { MemoryRateLimiter } from '@platform/http';
import { hashPassword } from '../password-hash';
import { PasswordLogin } from './password-login';

const FAST = { N: 1 << 10, r: 8, p: 1 };

describe('PasswordLogin', () => {
  const account = (user: { hash: string | null; active: boolean }) => ({
    passwordHash: user.hash,
    active: user.active,
  });

  it('hands back only an active account whose password matches', async () => {
    const login = new PasswordLogin();
    const hash = await hashPassword('right password', FAST);
    const user = { hash, active: true };
    expect(await login.check(user, account, 'right password')).toBe(user);
    expect(await login.check(user, account, 'wrong password')).toBeNull();
    expect(await login.check({ hash, active: false }, account, 'right password')).toBeNull();
    expect(await login.check({ hash: null, active: true }, account, 'right password')).toBeNull();
    expect(await login.check(null, account, 'right password')).toBeNull();
  });

  it('admits a client address up to its budget per minute', async () => {
    const login = new PasswordLogin({ limiter: new MemoryRateLimiter(), perMinute: 2 });
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await login.admit('10.0.0.1'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(decisions[2]).toMatchObject({ allowed: false });
    expect((await login.admit('10.0.0.2')).allowed).toBe(true);
    expect((await new PasswordLogin().admit('10.0.0.1')).allowed).toBe(true);
  });
});
