import { Inject, Injectable } from '@nestjs/common';
import { SharedRateLimits } from '@platform/http';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { ClientRateLimitGuard } from '../../app/http/client-rate-limit.guard';
import { AppAttestError } from './app-attest.errors';

/**
 * `/enroll/app-attest*` draw on the `/enroll*` budget of the client address (the `enroll`
 * bucket), refused in this module's error type — the enrollment module imports the app
 * attestation gate, so this module cannot import the enrollment's guard back.
 */
@Injectable()
export class AppAttestRateLimitGuard extends ClientRateLimitGuard {
  constructor(@Inject(CERTSVC_CONFIG) config: CertsvcConfig, limits: SharedRateLimits) {
    super(config, limits, 'enroll');
  }

  protected refuse(retryAfterSeconds: number): Error {
    return new AppAttestError('rate_limited', { retryAfterSeconds });
  }
}
