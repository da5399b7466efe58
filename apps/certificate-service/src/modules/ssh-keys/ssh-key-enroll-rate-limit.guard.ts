import { Inject, Injectable } from '@nestjs/common';
import { SharedRateLimits } from '@platform/http';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { ClientRateLimitGuard } from '../../app/http/client-rate-limit.guard';
import { SshKeysError } from './ssh-keys.errors';

/** The `/enroll*` rate limit on `/enroll/ssh-key*`, counted apart from the other enroll routes. */
@Injectable()
export class SshKeyEnrollRateLimitGuard extends ClientRateLimitGuard {
  constructor(@Inject(CERTSVC_CONFIG) config: CertsvcConfig, limits: SharedRateLimits) {
    super(config, limits, 'enroll-ssh-key');
  }

  protected refuse(retryAfterSeconds: number): Error {
    return new SshKeysError('rate_limited', undefined, { retryAfterSeconds });
  }
}
