import { verifyAgainstDummy, verifyPassword } from '../password-hash';
import type { RateLimiter } from '../rate-limiter';

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

  /** True only for an active account whose password matches. */
  async verify(account: PasswordAccount | null, password: string): Promise<boolean> {
    if (!account?.passwordHash) return verifyAgainstDummy(password);
    const matches = await verifyPassword(password, account.passwordHash);
    return matches && account.active;
  }
}
