import { CanActivate, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { MemoryRateLimiter, TrustedProxies } from '@platform/http';
import type { CertsvcConfig } from '../config/certsvc-config';

/**
 * A per-process limit of `CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE` requests a minute by client
 * address (read through `X-Forwarded-For` only from `CERTSVC_TRUSTED_PROXIES`).
 * Each route family counts in its own bucket and refuses in its own error type; with N
 * replicas the effective limit is about N times higher (the specification's documented
 * behaviour).
 */
export abstract class ClientRateLimitGuard implements CanActivate {
  private readonly limiter = new MemoryRateLimiter();
  private readonly proxies: TrustedProxies;

  protected constructor(
    private readonly config: CertsvcConfig,
    private readonly bucket: string,
  ) {
    this.proxies = new TrustedProxies(config.trustedProxies);
  }

  /** The route family's `rate_limited` error carrying the wait. */
  protected abstract refuse(retryAfterSeconds: number): Error;

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const client = this.proxies.clientAddress(
      request.socket.remoteAddress ?? '',
      request.headers['x-forwarded-for'],
    );
    const decision = await this.limiter.hit(
      `${this.bucket}:${client}`,
      this.config.rateLimits.enroll,
      60,
    );
    if (!decision.allowed) throw this.refuse(decision.retryAfterSeconds);
    return true;
  }
}
