import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SharedRateLimits } from '@platform/http';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig, rateLimitWarnings } from '../../app/config/findings-config';
import { Principal } from '../../app/access/access-context';
import { RateLimitError } from './rate-limit.errors';

/**
 * Two layers of one-minute windows counted by the shared limiter of `@platform/http` in Redis
 * (shared by every replica): a floor per client address and a limit per identity (user or
 * service-account key).
 */
@Injectable()
export class RateLimitService implements OnApplicationBootstrap {
  private readonly logger = new Logger('RateLimit');

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly limits: SharedRateLimits,
  ) {}

  onApplicationBootstrap(): void {
    for (const warning of rateLimitWarnings(this.config.rateLimits)) this.logger.warn(warning);
  }

  /** Client address: X-Forwarded-For is believed only when the peer is a trusted proxy. */
  clientAddress(peer: string, forwardedFor: string | string[] | undefined): string {
    return this.limits.clientAddress(peer, forwardedFor);
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

  /** Fails open: an unreachable Redis must not take the API down with it (SharedRateLimits). */
  private async hit(key: string, limit: number): Promise<void> {
    const decision = await this.limits.hit(key, limit);
    if (!decision.allowed) throw new RateLimitError(decision.retryAfterSeconds);
  }
}
