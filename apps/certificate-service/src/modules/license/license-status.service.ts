import { Injectable } from '@nestjs/common';
import { PURPOSES, type Purpose } from '../../app/domain/purposes';
import { EffectiveLicenseService, type LicenseMode } from './effective-license.service';
import { LicenseRepository } from './license.repository';

export interface PurposeSeats {
  purpose: Purpose;
  bought: number;
  used: number;
  free: number;
}

export interface LicenseStatus {
  mode: LicenseMode;
  tier: 'free' | 'paid';
  issuedTo: string;
  activeCount: number;
  maxDevices: number;
  highWater: number;
  expiresAt: Date | null;
  tamper: boolean;
  tamperReason: string;
  deploymentInstanceKey: string;
  purposeSeatsLimited: boolean;
  purposeSeats: PurposeSeats[];
}

/** `GET /license/status`: the license in force, slots and seats in use, `tamper`. */
@Injectable()
export class LicenseStatusService {
  constructor(
    private readonly licenses: LicenseRepository,
    private readonly license: EffectiveLicenseService,
  ) {}

  async status(): Promise<LicenseStatus> {
    const now = new Date();
    const [state, activeCount, byPurpose] = await Promise.all([
      this.licenses.state(),
      this.licenses.slotCount(),
      this.licenses.seatHolders(now),
    ]);
    const license = this.license.effective(state, now);
    const seats = license.purposeSeats;
    return {
      mode: license.mode,
      tier: license.mode === 'licensed' ? 'paid' : 'free',
      issuedTo: license.terms?.issuedTo ?? '',
      activeCount,
      maxDevices: license.maxDevices,
      highWater: Math.max(state?.highWater ?? 0, activeCount),
      expiresAt: license.terms?.expiresAt ?? null,
      tamper: Boolean(state?.tamperReason),
      tamperReason: state?.tamperReason ?? '',
      deploymentInstanceKey: state?.instancePublicKey ?? '',
      purposeSeatsLimited: seats !== null,
      purposeSeats: PURPOSES.map((purpose) => {
        const used = byPurpose.get(purpose) ?? 0;
        const bought = seats?.[purpose] ?? 0;
        return { purpose, bought, used, free: seats ? Math.max(0, bought - used) : 0 };
      }),
    };
  }
}
