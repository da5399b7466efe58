import { CanActivate, Inject, Injectable } from '@nestjs/common';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../config/certsvc-config';
import { CertsvcError } from '../errors/certsvc-error';

/** 404 `ssh_disabled`: the SSH routes while `CERTSVC_FEATURES_SSH` is off. */
export class SshDisabledError extends CertsvcError<'ssh_disabled'> {
  constructor() {
    super('ssh_disabled', 'SSH is switched off on this server (CERTSVC_FEATURES_SSH)');
  }
}

/**
 * Guard of every SSH route (CA key, KRL, SSH enrollment, key registry, key-holder API): with
 * `CERTSVC_FEATURES_SSH=false` the routes stay mounted but answer 404 `ssh_disabled`, and the
 * `ssh` feature flag is false.
 */
@Injectable()
export class SshEnabledGuard implements CanActivate {
  constructor(@Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig) {}

  canActivate(): boolean {
    if (!this.config.features.ssh) throw new SshDisabledError();
    return true;
  }
}
