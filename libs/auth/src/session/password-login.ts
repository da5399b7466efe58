import { verifyAgainstDummy, verifyPassword } from '../password-hash';
import type { RateLimiter } from '@platform/http';

/** What local login needs to know about an account. */
export interface PasswordAccount {
  /** Null for accounts that sign in only through single sign-on. */
  passwordHash: string | null;
  /** False when the account may not sign in (disabled). */
  active: boolean;
}

export type LoginThrottleDecision =
  { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Local login: the shared scrypt check and, when a limiter is given, a per-client-address
 * budget per minute. Unknown and password-less accounts burn the same time as real ones.
 */
export class PasswordLogin {
  constructor(private readonly throttle?: { limiter: RateLimiter; perMinute: number }) {}

  /** Counts one attempt from `clientAddress` against the budget. */
  async admit(clientAddress: string): Promise<LoginThrottleDecision> {
    if (!this.throttle) return { allowed: true };
    const decision = await this.throttle.limiter.hit(
      `login:${clientAddress}`,
      this.throttle.perMinute,
      60,
    );
    return decision.allowed
      ? { allowed: true }
      : { allowed: false, retryAfterSeconds: decision.retryAfterSeconds };
  }

  /**
   * `found` when it is an active account whose password matches, else null. The check runs
   * even when nothing was found, so the answer takes as long for unknown accounts.
   */
  async check<T>(
    found: T | null,
    account: (found: T) => PasswordAccount,
    password: string,
  ): Promise<T | null> {
    const verified = await this.verify(found === null ? null : account(found), password);
    return verified ? found : null;
  }

  private async verify(account: PasswordAccount | null, password: string): Promise<boolean> {
    if (!account?.passwordHash) return verifyAgainstDummy(password);
    const matches = await verifyPassword(password, account.passwordHash);
    return matches && account.active;
  }
}
