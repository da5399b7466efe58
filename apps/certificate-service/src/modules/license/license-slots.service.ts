import { Injectable } from '@nestjs/common';
import { EffectiveLicenseService } from './effective-license.service';
import { LicenseError } from './license.errors';
import { LicenseLedgerService } from './license-ledger.service';
import { LicenseRepository, type LicenseTx, type SlotCandidate } from './license.repository';
import { admitSlots } from './slot-admission';

export interface SlotDecision {
  /** Identity keys refused: for lack of slots, or all new ones while in `tamper`. */
  refused: Set<string>;
  /** Error code of the refused rows. */
  refusal: 'license_limit' | 'license_tamper';
  /** Counts the admitted new identities; call once their issuance is persisted. */
  commit(issued: readonly SlotCandidate[], at: Date): Promise<void>;
}

/**
 * Device slots: a device takes one at its first issuance and keeps it until decommissioned.
 * Decisions and releases run in a transaction holding the ledger lock and are recorded in the
 * usage ledger.
 */
@Injectable()
export class LicenseSlotsService {
  constructor(
    private readonly licenses: LicenseRepository,
    private readonly license: EffectiveLicenseService,
    private readonly ledger: LicenseLedgerService,
  ) {}

  /** Runs `work` in a transaction holding the ledger lock (concurrent approvals serialize). */
  inLedgerTransaction<T>(work: (tx: LicenseTx) => Promise<T>): Promise<T> {
    return this.licenses.transaction(work);
  }

  /**
   * Which identities may be issued to, inside a ledger transaction. When new identities need
   * a slot the ledger is checked first; in `tamper` every new identity is refused
   * (`license_tamper`) while identities holding a slot (renewals) go through.
   */
  async decide(tx: LicenseTx, identityKeys: readonly string[]): Promise<SlotDecision> {
    const held = await tx.slotsHeld(identityKeys);
    const state = await tx.state();
    if (identityKeys.some((k) => !held.has(k))) {
      const tamper = state?.tamperReason ?? (await this.ledger.integrityProblem(tx, state));
      if (tamper) {
        if (!state?.tamperReason)
          await this.ledger.enterTamper(tamper, 'before a counted issuance');
        return {
          refused: new Set(identityKeys.filter((k) => !held.has(k))),
          refusal: 'license_tamper',
          // Nothing to count: only identities already holding a slot go through.
          commit: () => Promise.resolve(),
        };
      }
    }
    const used = await tx.slotCount();
    const { maxDevices } = this.license.effective(state, new Date());
    const admission = admitSlots(
      identityKeys.map((identityKey) => ({ identityKey })),
      held,
      used,
      maxDevices,
    );
    const admitted = new Set(admission.newlyCounted);
    return {
      refused: admission.refused,
      refusal: 'license_limit',
      commit: async (issued, at) => {
        const seen = new Set<string>();
        const toCount = issued.filter((c) => {
          if (!admitted.has(c.identityKey) || seen.has(c.identityKey)) return false;
          seen.add(c.identityKey);
          return true;
        });
        if (toCount.length === 0) return;
        await tx.count(toCount, at);
        await this.ledger.checkpoint(tx, at, false);
      },
    };
  }

  /** Frees a slot (not audited separately, specification "Licensing rules"). */
  async decommission(identityKey: string): Promise<{ activeCount: number }> {
    return this.licenses.transaction(async (tx) => {
      if (!(await this.decommissionIn(tx, identityKey, new Date()))) {
        throw new LicenseError('license_slot_not_found');
      }
      return { activeCount: await tx.slotCount() };
    });
  }

  /** Decommission inside a caller's ledger transaction; false when no slot was held. */
  async decommissionIn(tx: LicenseTx, identityKey: string, at: Date): Promise<boolean> {
    if (!(await tx.decommission(identityKey, at))) return false;
    await this.ledger.checkpoint(tx, at, false);
    return true;
  }
}
