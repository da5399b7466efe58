import { Inject, Injectable } from '@nestjs/common';
import { PURPOSES, type Purpose } from '../../app/domain/purposes';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { LicenseError } from './license.errors';
import { LicenseRepository, type LicenseTx, type SlotCandidate } from './license.repository';
import { admitSlots } from './slot-admission';

export interface PurposeSeats {
  purpose: Purpose;
  bought: number;
  used: number;
  free: number;
}

export interface LicenseStatus {
  mode: 'licensed' | 'free' | 'expired';
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

export interface SlotDecision {
  /** Identity keys refused for lack of slots. */
  refused: Set<string>;
  /** Counts the admitted new identities; call once their issuance is persisted. */
  commit(issued: readonly SlotCandidate[], at: Date): Promise<void>;
}

/**
 * Device slots. Free mode only (signed licenses come later): `CERTSVC_DEFAULT_MAX_DEVICES`
 * (50) slots; a device takes one at its first issuance and keeps it until decommissioned.
 */
@Injectable()
export class LicenseService {
  constructor(
    private readonly licenses: LicenseRepository,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  maxDevices(): number {
    return this.config.license.defaultMaxDevices;
  }

  /** Runs `work` in a transaction holding the ledger lock (concurrent approvals serialize). */
  inLedgerTransaction<T>(work: (tx: LicenseTx) => Promise<T>): Promise<T> {
    return this.licenses.transaction(work);
  }

  /** Which identities may be issued to, inside a ledger transaction. */
  async decide(tx: LicenseTx, identityKeys: readonly string[]): Promise<SlotDecision> {
    const held = await tx.slotsHeld(identityKeys);
    const used = await tx.slotCount();
    const admission = admitSlots(
      identityKeys.map((identityKey) => ({ identityKey })),
      held,
      used,
      this.maxDevices(),
    );
    const admitted = new Set(admission.newlyCounted);
    return {
      refused: admission.refused,
      commit: async (issued, at) => {
        const seen = new Set<string>();
        const toCount = issued.filter((c) => {
          if (!admitted.has(c.identityKey) || seen.has(c.identityKey)) return false;
          seen.add(c.identityKey);
          return true;
        });
        await tx.count(toCount, at);
      },
    };
  }

  /** Frees a slot (not audited separately, specification "Licensing rules"). */
  async decommission(identityKey: string): Promise<{ activeCount: number }> {
    return this.licenses.transaction(async (tx) => {
      if (!(await tx.decommission(identityKey, new Date()))) {
        throw new LicenseError('license_slot_not_found');
      }
      return { activeCount: await tx.slotCount() };
    });
  }

  /** Decommission inside a caller's ledger transaction; false when no slot was held. */
  decommissionIn(tx: LicenseTx, identityKey: string, at: Date): Promise<boolean> {
    return tx.decommission(identityKey, at);
  }

  async status(): Promise<LicenseStatus> {
    const now = new Date();
    const [state, activeCount, byPurpose] = await Promise.all([
      this.licenses.state(),
      this.licenses.slotCount(),
      this.licenses.devicesByPurpose(now),
    ]);
    return {
      mode: 'free',
      tier: 'free',
      issuedTo: '',
      activeCount,
      maxDevices: this.maxDevices(),
      highWater: Math.max(state?.highWater ?? 0, activeCount),
      expiresAt: null,
      tamper: false,
      tamperReason: '',
      deploymentInstanceKey: state?.instancePublicKey ?? '',
      purposeSeatsLimited: false,
      purposeSeats: PURPOSES.map((purpose) => ({
        purpose,
        bought: 0,
        used: byPurpose.get(purpose) ?? 0,
        free: 0,
      })),
    };
  }
}
