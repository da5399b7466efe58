import { Inject, Injectable } from '@nestjs/common';
import { SharedRateLimits } from '@platform/http';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { ClientRateLimitGuard } from '../../app/http/client-rate-limit.guard';
import { LicenseError } from './license.errors';

/** `POST /license/attest`: the enroll rate limit, counted apart from `/enroll*`. */
@Injectable()
export class AttestRateLimitGuard extends ClientRateLimitGuard {
  constructor(@Inject(CERTSVC_CONFIG) config: CertsvcConfig, limits: SharedRateLimits) {
    super(config, limits, 'license-attest');
  }

  protected refuse(retryAfterSeconds: number): Error {
    return new LicenseError('rate_limited', undefined, { retryAfterSeconds });
  }
}
