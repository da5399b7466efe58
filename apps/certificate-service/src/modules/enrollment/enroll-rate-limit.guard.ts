import { Inject, Injectable } from '@nestjs/common';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { ClientRateLimitGuard } from '../../app/http/client-rate-limit.guard';
import { EnrollmentError } from './enrollment.errors';

/** `/enroll*` by client address, per process. */
@Injectable()
export class EnrollRateLimitGuard extends ClientRateLimitGuard {
  constructor(@Inject(CERTSVC_CONFIG) config: CertsvcConfig) {
    super(config, 'enroll');
  }

  protected refuse(retryAfterSeconds: number): Error {
    return new EnrollmentError('rate_limited', { retryAfterSeconds });
  }
}
