import { Injectable } from '@nestjs/common';
import { DeploymentInstanceKeyService } from './deployment-instance-key.service';
import { EffectiveLicenseService, type LicenseMode } from './effective-license.service';
import { attestMessage } from './license-file';
import { LicenseError } from './license.errors';
import { LicenseRepository } from './license.repository';

export interface LicenseAttestation {
  mode: LicenseMode;
  licenseB64: string;
  nonce: string;
  deploymentInstanceKey: string;
  signature: string;
}

/** Proof of the license this deployment runs under (`POST /license/attest`). */
@Injectable()
export class LicenseAttestationService {
  constructor(
    private readonly licenses: LicenseRepository,
    private readonly license: EffectiveLicenseService,
    private readonly instanceKey: DeploymentInstanceKeyService,
  ) {}

  /**
   * `POST /license/attest`: the stored license (`''` in free mode) and the deployment instance
   * key's signature over (`certsvc-license-attest/v1`, nonce, license), NUL-separated.
   */
  async attest(nonce: string): Promise<LicenseAttestation> {
    const state = await this.licenses.state();
    if (!state) throw new LicenseError('license_invalid', 'the deployment instance key is missing');
    const license = this.license.effective(state, new Date());
    const licenseB64 = license.terms ? (state.licenseB64 ?? '') : '';
    return {
      mode: license.mode,
      licenseB64,
      nonce,
      deploymentInstanceKey: state.instancePublicKey,
      signature: this.instanceKey.sign(state, attestMessage(nonce, licenseB64)),
    };
  }
}
