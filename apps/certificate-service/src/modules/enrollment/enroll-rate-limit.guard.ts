import { Inject, Injectable } from '@nestjs/common';
import { SharedRateLimits } from '@platform/http';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { ClientRateLimitGuard } from '../../app/http/client-rate-limit.guard';
import { EnrollmentError } from './enrollment.errors';

/** `/enroll*` by client address, one budget for all replicas. */
@Injectable()
export class EnrollRateLimitGuard extends ClientRateLimitGuard {
  constructor(@Inject(CERTSVC_CONFIG) config: CertsvcConfig, limits: SharedRateLimits) {
    super(config, limits, 'enroll');
  }

  protected refuse(retryAfterSeconds: number): Error {
    return new EnrollmentError('rate_limited', { retryAfterSeconds });
  }
}
