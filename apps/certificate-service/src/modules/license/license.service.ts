import { Inject, Injectable, Logger } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
import { PURPOSES, type Purpose } from '../../app/domain/purposes';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import type { Actor } from '../../app/access/actor';
import { AuditService } from '../audit/audit.service';
import { checkLicense, ed25519PublicKey, type LicenseTerms } from './license-file';
import { LicenseError } from './license.errors';
import { LicenseRepository, type LicenseTx, type SlotCandidate } from './license.repository';
import type { LicenseStateEntity } from './license-state.entity';
import { admitSlots } from './slot-admission';

export interface PurposeSeats {
  purpose: Purpose;
  bought: number;
  used: number;
  free: number;
}

export type LicenseMode = 'licensed' | 'free' | 'expired';

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

/** The license in force at a moment: mode, device limit and (licensed only) its terms. */
export interface EffectiveLicense {
  mode: LicenseMode;
  maxDevices: number;
  /** Terms of the activated license (also when expired); null in free mode. */
  terms: LicenseTerms | null;
  /** Seats per purpose in force; null when the license in force carries none. */
  purposeSeats: Partial<Record<Purpose, number>> | null;
}

export interface SlotDecision {
  /** Identity keys refused for lack of slots. */
  refused: Set<string>;
  /** Counts the admitted new identities; call once their issuance is persisted. */
  commit(issued: readonly SlotCandidate[], at: Date): Promise<void>;
}

const INVALID_REASONS = {
  no_vendor_key: 'no vendor public key is configured (CERTSVC_LICENSE_VENDOR_PUBLIC_KEY)',
  malformed: 'the license file is not a certsvc-license/v1 file',
  signature: 'the license signature does not verify with the vendor public key',
  instance: 'the license is bound to another deployment instance key',
  expired: 'the license has expired',
} as const;

/**
 * Device slots and the signed license: without one (or when it has expired) the default
 * `CERTSVC_DEFAULT_MAX_DEVICES` (50) slots apply; a device takes one at its first issuance
 * and keeps it until decommissioned.
 */
@Injectable()
export class LicenseService {
  private readonly logger = new Logger(LicenseService.name);
  private readonly vendorKey: KeyObject | undefined;

  constructor(
    private readonly licenses: LicenseRepository,
    private readonly audit: AuditService,
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
  effective(state: LicenseStateEntity | null, now: Date): EffectiveLicense {
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
        `stored license no longer verifies (${INVALID_REASONS[check.reason]}); free mode applies`,
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

  /** Runs `work` in a transaction holding the ledger lock (concurrent approvals serialize). */
  inLedgerTransaction<T>(work: (tx: LicenseTx) => Promise<T>): Promise<T> {
    return this.licenses.transaction(work);
  }

  /** Which identities may be issued to, inside a ledger transaction. */
  async decide(tx: LicenseTx, identityKeys: readonly string[]): Promise<SlotDecision> {
    const held = await tx.slotsHeld(identityKeys);
    const used = await tx.slotCount();
    const { maxDevices } = this.effective(await tx.state(), new Date());
    const admission = admitSlots(
      identityKeys.map((identityKey) => ({ identityKey })),
      held,
      used,
      maxDevices,
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

  /**
   * `POST /license/activate`: accepts only a file signed by the vendor key, bound to this
   * deployment's instance key and not expired; otherwise `license_invalid` and the previous
   * license stays in force.
   */
  async activate(licenseB64: string, actor: Actor): Promise<LicenseStatus> {
    const state = await this.licenses.state();
    if (!state) throw new LicenseError('license_invalid', 'the deployment instance key is missing');
    const now = new Date();
    const check = checkLicense(licenseB64, this.vendorKey, state.instancePublicKey, now);
    if (!check.ok) throw new LicenseError('license_invalid', INVALID_REASONS[check.reason]);
    await this.licenses.storeLicense(licenseB64, now);
    const { terms } = check;
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
    return this.status();
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
    const license = this.effective(state, now);
    const seats = license.purposeSeats;
    return {
      mode: license.mode,
      tier: license.mode === 'licensed' ? 'paid' : 'free',
      issuedTo: license.terms?.issuedTo ?? '',
      activeCount,
      maxDevices: license.maxDevices,
      highWater: Math.max(state?.highWater ?? 0, activeCount),
      expiresAt: license.terms?.expiresAt ?? null,
      tamper: false,
      tamperReason: '',
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
