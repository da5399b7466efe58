import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { type OneTimeUse, RedisOneTimeUse } from '@platform/auth';
import Redis from 'ioredis';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';

/**
 * Single sign-on flows already completed, remembered in Redis until they would have expired,
 * so a replayed callback is refused on every replica. Connects at the first sign-in.
 */
@Injectable()
export class CompletedSsoFlows implements OneTimeUse, OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly used: RedisOneTimeUse;

  constructor(@Inject(FINDINGS_CONFIG) config: FindingsConfig) {
    this.redis = new Redis(config.redisUrl, {
      connectionName: `findings-${config.role}-sso`,
      lazyConnect: true,
      maxRetriesPerRequest: 1,
    });
    this.used = new RedisOneTimeUse(this.redis, 'findsvc:sso-flow:');
  }

  claim(key: string, ttlSeconds: number): Promise<boolean> {
    return this.used.claim(key, ttlSeconds);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => undefined);
    else this.redis.disconnect();
  }
}
