import type Redis from 'ioredis';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string, limit: number, windowSeconds: number): Promise<RateDecision>;
}

// INCR and set the expiry on the first hit of a window, atomically.
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return {n, ttl}
`;

/** The hit script as a command of the client (`defineCommand`): sent as `EVALSHA`. */
type WithHitCommand = Redis & {
  rateLimitHit(key: string, windowMs: string): Promise<[number, number]>;
};

/**
 * Fixed-window counters in Redis: every replica shares one limit. A key's window starts with
 * its first request and lasts `windowSeconds` (as in `MemoryRateLimiter`), so a budget is never
 * cut short by a clock boundary. The script is a defined command of the client: `EVALSHA` of
 * its digest (ioredis sends `EVAL` once when the server does not know it yet, e.g. after a
 * restart or `SCRIPT FLUSH`), not the script's text on every request.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: WithHitCommand;

  constructor(
    redis: Redis,
    private readonly prefix = 'rl:',
  ) {
    if (!('rateLimitHit' in redis))
      redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as WithHitCommand;
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    const [count, ttl] = await this.redis.rateLimitHit(
      `${this.prefix}${key}:w${windowSeconds}`,
      String(windowSeconds * 1000),
    );
    return decide(count, limit, Math.max(1, Math.ceil(ttl / 1000)));
  }
}

/** Per-process counters: tests, and a service started without Redis (development). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, w);
      if (this.windows.size > 100_000) this.evict(now);
    }
    w.count += 1;
    return decide(w.count, limit, Math.max(1, Math.ceil((w.resetAt - now) / 1000)));
  }

  private evict(now: number): void {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}

function decide(count: number, limit: number, retryAfterSeconds: number): RateDecision {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    retryAfterSeconds,
  };
}
