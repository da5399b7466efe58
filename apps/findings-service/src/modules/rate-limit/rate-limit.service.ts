import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { RateLimiter, RedisRateLimiter, TrustedProxies } from '@platform/http';
import Redis from 'ioredis';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig, rateLimitWarnings } from '../../app/config/findings-config';
import { Principal } from '../../app/access/access-context';
import { RateLimitError } from './rate-limit.errors';
import { RATE_LIMIT_REDIS } from './redis-client.provider';

const WINDOW_SECONDS = 60;

/**
 * Two layers of fixed one-minute windows kept in Redis (shared by every replica): a floor
 * per client address and a limit per identity (user or service-account key).
 */
@Injectable()
export class RateLimitService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly limiter: RateLimiter;
  private readonly proxies: TrustedProxies;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    @Inject(RATE_LIMIT_REDIS) private readonly redis: Redis,
  ) {
    this.limiter = new RedisRateLimiter(redis, config.rateLimitKeyPrefix);
    this.proxies = new TrustedProxies(config.trustedProxies);
  }

  onApplicationBootstrap(): void {
    for (const warning of rateLimitWarnings(this.config.rateLimits)) this.logger.warn(warning);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }

  /** Client address: X-Forwarded-For is believed only when the peer is a trusted proxy. */
  clientAddress(peer: string, forwardedFor: string | string[] | undefined): string {
    return this.proxies.clientAddress(peer, forwardedFor);
  }

  async checkAddress(address: string, bucket: 'api' | 'auth'): Promise<void> {
    const limit = bucket === 'auth' ? this.config.rateLimits.auth : this.config.rateLimits.api;
    await this.hit(`${bucket}:addr:${address}`, limit);
  }

  async checkIdentity(principal: Principal): Promise<void> {
    const limit =
      principal.kind === 'user'
        ? this.config.rateLimits.user
        : this.config.rateLimits.serviceAccount;
    await this.hit(`id:${principal.kind}:${principal.id}`, limit);
  }

  /** A route's own per-identity limit (e.g. ENRICH_TAGS_RATE_LIMIT_PER_MINUTE), besides the general ones. */
  async checkRouteLimit(route: string, principal: Principal, limit: number): Promise<void> {
    await this.hit(`route:${route}:${principal.kind}:${principal.id}`, limit);
  }

  private async hit(key: string, limit: number): Promise<void> {
    let decision;
    try {
      decision = await this.limiter.hit(key, limit, WINDOW_SECONDS);
    } catch (err) {
      // Fail open: an unreachable Redis must not take the API down with it.
      this.logger.warn(`rate limiter unavailable, request allowed: ${(err as Error).message}`);
      return;
    }
    if (!decision.allowed) throw new RateLimitError(decision.retryAfterSeconds);
  }
}
