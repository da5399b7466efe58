import { Provider } from '@nestjs/common';
import Redis from 'ioredis';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';

export const RATE_LIMIT_REDIS = Symbol('RATE_LIMIT_REDIS');

/** The Redis connection that holds the shared rate-limit counters. */
export const rateLimitRedisProvider: Provider = {
  provide: RATE_LIMIT_REDIS,
  inject: [FINDINGS_CONFIG],
  useFactory: (config: FindingsConfig): Redis =>
    new Redis(config.redisUrl, {
      connectionName: `findings-${config.role}-ratelimit`,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
    }),
};
