import { Module } from '@nestjs/common';
import { RateLimitService } from './rate-limit.service';
import { rateLimitRedisProvider } from './redis-client.provider';

@Module({
  providers: [rateLimitRedisProvider, RateLimitService],
  exports: [RateLimitService],
})
export class RateLimitModule {}
