import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { MemoryRateLimiter, TrustedProxies } from '@platform/http';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { EnrollmentError } from './enrollment.errors';

/**
 * Per-process limit on `/enroll*` by client address (the specification's documented
 * behaviour: with N replicas the effective limit is about N times higher).
 */
@Injectable()
export class EnrollRateLimitGuard implements CanActivate {
  private readonly limiter = new MemoryRateLimiter();
  private readonly proxies: TrustedProxies;

  constructor(@Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig) {
    this.proxies = new TrustedProxies(config.trustedProxies);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const client = this.proxies.clientAddress(
      request.socket.remoteAddress ?? '',
      request.headers['x-forwarded-for'],
    );
    const decision = await this.limiter.hit(
      `enroll:${client}`,
      this.config.enroll.rateLimitPerMinute,
      60,
    );
    if (!decision.allowed) {
      throw new EnrollmentError('rate_limited', { retryAfterSeconds: decision.retryAfterSeconds });
    }
    return true;
  }
}
