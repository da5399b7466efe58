import { Module } from '@nestjs/common';
import { SharedRateLimitsModule } from '@platform/http';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { RateLimitService } from './rate-limit.service';

@Module({
  imports: [
    SharedRateLimitsModule.forRootAsync({
      inject: [FINDINGS_CONFIG],
      useFactory: (config: FindingsConfig) => ({
        redisUrl: config.redisUrl,
        keyPrefix: config.rateLimitKeyPrefix,
        connectionName: `findings-${config.role}-ratelimit`,
        trustedProxies: config.trustedProxies,
      }),
    }),
  ],
  providers: [RateLimitService],
  exports: [RateLimitService],
})
export class RateLimitModule {}
