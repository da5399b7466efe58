import { Inject, Injectable, Logger } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
import type { Purpose } from '../../app/domain/purposes';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { checkLicense, ed25519PublicKey, type LicenseTerms } from './license-file';
import { LicenseError } from './license.errors';
import { LicenseRepository } from './license.repository';
import type { LicenseStateEntity } from './license-state.entity';

export type LicenseMode = 'licensed' | 'free' | 'expired';

/** The license in force at a moment: mode, device limit and (licensed only) its terms. */
export interface EffectiveLicense {
  mode: LicenseMode;
  maxDevices: number;
  /** Terms of the activated license (also when expired); null in free mode. */
  terms: LicenseTerms | null;
  /** Seats per purpose in force; null when the license in force carries none. */
  purposeSeats: Partial<Record<Purpose, number>> | null;
}

const INVALID_REASONS = {
  no_vendor_key: 'no vendor public key is configured (CERTSVC_LICENSE_VENDOR_PUBLIC_KEY)',
  malformed: 'the license file is not a certsvc-license/v1 file',
  signature: 'the license signature does not verify with the vendor public key',
  instance: 'the license is bound to another deployment instance key',
  expired: 'the license has expired',
} as const;

/**
 * The license in force: the signed file checked against the vendor public key. Without one
 * (or when it has expired) the default `CERTSVC_DEFAULT_MAX_DEVICES` (50) slots apply.
 */
@Injectable()
export class EffectiveLicenseService {
  private readonly logger = new Logger('EffectiveLicense');
  private readonly vendorKey: KeyObject | undefined;

  constructor(
    private readonly licenses: LicenseRepository,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {
    const vendor = config.license.vendorPublicKey;
    this.vendorKey = vendor === undefined ? undefined : ed25519PublicKey(vendor);
  }

  /** Device slots in force now (the license's, or the default when free or expired). */
  async maxDevices(now = new Date()): Promise<number> {
    return this.effective(await this.licenses.state(), now).maxDevices;
  }

  /**
   * The license in force given the stored state. The stored file is verified again on every
   * read, so a row edited in the database (or a changed vendor key) falls back to free mode.
   */
  effective(
    state: Pick<LicenseStateEntity, 'licenseB64' | 'instancePublicKey'> | null | undefined,
    now: Date,
  ): EffectiveLicense {
    const free: EffectiveLicense = {
      mode: 'free',
      maxDevices: this.config.license.defaultMaxDevices,
      terms: null,
      purposeSeats: null,
    };
    if (!state?.licenseB64) return free;
    const check = checkLicense(state.licenseB64, this.vendorKey, state.instancePublicKey, now, {
      allowExpired: true,
    });
    if (!check.ok) {
      this.logger.warn(
        { reason: INVALID_REASONS[check.reason] },
        'stored license no longer verifies; free mode applies',
      );
      return free;
    }
    const { terms } = check;
    if (terms.expiresAt && terms.expiresAt <= now) {
      return { ...free, mode: 'expired', terms };
    }
    return {
      mode: 'licensed',
      maxDevices: terms.maxDevices,
      terms,
      purposeSeats: terms.purposeSeats,
    };
  }

  /**
   * The terms of a license file this deployment accepts now: signed by the vendor key, bound
   * to `instancePublicKey` and not expired; otherwise `license_invalid` naming the reason.
   */
  acceptable(licenseB64: string, instancePublicKey: string, now: Date): LicenseTerms {
    const check = checkLicense(licenseB64, this.vendorKey, instancePublicKey, now);
    if (!check.ok) throw new LicenseError('license_invalid', INVALID_REASONS[check.reason]);
    return check.terms;
  }
}
