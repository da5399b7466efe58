import { Injectable } from '@nestjs/common';
import type { Actor } from '../../app/access/actor';
import { AuditService } from '../audit/audit.service';
import { EffectiveLicenseService } from './effective-license.service';
import { LicenseError } from './license.errors';
import { LicenseRepository } from './license.repository';
import { LicenseStatusService, type LicenseStatus } from './license-status.service';

/** Activating a signed license file (`POST /license/activate`). */
@Injectable()
export class LicenseActivationService {
  constructor(
    private readonly licenses: LicenseRepository,
    private readonly license: EffectiveLicenseService,
    private readonly licenseStatus: LicenseStatusService,
    private readonly audit: AuditService,
  ) {}

  /**
   * `POST /license/activate`: accepts only a file signed by the vendor key, bound to this
   * deployment's instance key and not expired; otherwise `license_invalid` and the previous
   * license stays in force.
   */
  async activate(licenseB64: string, actor: Actor): Promise<LicenseStatus> {
    const state = await this.licenses.state();
    if (!state) throw new LicenseError('license_invalid', 'the deployment instance key is missing');
    const now = new Date();
    const terms = this.license.acceptable(licenseB64, state.instancePublicKey, now);
    await this.licenses.storeLicense(licenseB64, now, {
      license_id: terms.licenseId,
      max_devices: terms.maxDevices,
      expires_at: terms.expiresAt?.toISOString() ?? null,
    });
    await this.audit.record({
      action: 'license.activate',
      actor,
      target: terms.licenseId,
      details: {
        issued_to: terms.issuedTo,
        max_devices: terms.maxDevices,
        expires_at: terms.expiresAt?.toISOString() ?? null,
        purpose_seats: terms.purposeSeats,
      },
    });
    return this.licenseStatus.status();
  }
}
