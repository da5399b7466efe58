import { Module } from '@nestjs/common';
import { SharedRateLimitsModule } from '@platform/http';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../config/certsvc-config';

/**
 * `SharedRateLimits` of `@platform/http` for the service's limiters (enroll, license attest,
 * SSH-key enroll, agent, key-holder, login): counters in Redis (`CERTSVC_REDIS_URL`), so the
 * API replicas share one budget per key, as in the findings service.
 */
@Module({
  imports: [
    SharedRateLimitsModule.forRootAsync({
      inject: [CERTSVC_CONFIG],
      useFactory: (config: CertsvcConfig) => ({
        redisUrl: config.redisUrl,
        keyPrefix: config.rateLimitKeyPrefix,
        connectionName: 'certificate-api-ratelimit',
        trustedProxies: config.trustedProxies,
      }),
    }),
  ],
  exports: [SharedRateLimitsModule],
})
export class RateLimitsModule {}
