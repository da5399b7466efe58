import type Redis from 'ioredis';

/** Remembers that something was used, so a second use can be refused (replays). */
export interface OneTimeUse {
  /** True the first time `key` is claimed within `ttlSeconds`, false afterwards. */
  claim(key: string, ttlSeconds: number): Promise<boolean>;
}

/** One-time use shared by every replica: `SET key NX EX ttl` in Redis. */
export class RedisOneTimeUse implements OneTimeUse {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async claim(key: string, ttlSeconds: number): Promise<boolean> {
    const set = await this.redis.set(
      `${this.prefix}${key}`,
      '1',
      'EX',
      Math.max(1, ttlSeconds),
      'NX',
    );
    return set === 'OK';
  }
}
