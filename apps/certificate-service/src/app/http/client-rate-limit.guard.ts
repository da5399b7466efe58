import { CanActivate, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { SharedRateLimits } from '@platform/http';
import type { CertsvcConfig } from '../config/certsvc-config';

/**
 * A limit of `CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE` requests a minute by client address (read
 * through `X-Forwarded-For` only from `CERTSVC_TRUSTED_PROXIES`), counted in the shared
 * limiter, so every API replica draws on one budget. Each route family counts in its own
 * bucket and refuses in its own error type.
 */
export abstract class ClientRateLimitGuard implements CanActivate {
  protected constructor(
    private readonly config: CertsvcConfig,
    private readonly limits: SharedRateLimits,
    private readonly bucket: string,
  ) {}

  /** The route family's `rate_limited` error carrying the wait. */
  protected abstract refuse(retryAfterSeconds: number): Error;

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const client = this.limits.clientAddress(
      request.socket.remoteAddress ?? '',
      request.headers['x-forwarded-for'],
    );
    const decision = await this.limits.hit(
      `${this.bucket}:${client}`,
      this.config.rateLimits.enroll,
    );
    if (!decision.allowed) throw this.refuse(decision.retryAfterSeconds);
    return true;
  }
}
