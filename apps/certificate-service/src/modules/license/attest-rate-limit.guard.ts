import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { MemoryRateLimiter, TrustedProxies } from '@platform/http';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { LicenseError } from './license.errors';

/**
 * `POST /license/attest`: the enroll rate limit (`CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE` per
 * client address, held in this process), counted apart from `/enroll*`.
 */
@Injectable()
export class AttestRateLimitGuard implements CanActivate {
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
      `license-attest:${client}`,
      this.config.enroll.rateLimitPerMinute,
      60,
    );
    if (!decision.allowed) {
      throw new LicenseError('rate_limited', undefined, {
        retryAfterSeconds: decision.retryAfterSeconds,
      });
    }
    return true;
  }
}
