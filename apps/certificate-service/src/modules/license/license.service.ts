import { Inject, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { createPrivateKey, type KeyObject, sign, verify } from 'node:crypto';
import { openPrivateKey } from '@platform/pki';
import { PURPOSES, type Purpose } from '../../app/domain/purposes';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import type { Actor } from '../../app/access/actor';
import { AuditService } from '../audit/audit.service';
import { attestMessage, checkLicense, ed25519PublicKey, type LicenseTerms } from './license-file';
import { LicenseError } from './license.errors';
import type { LicenseCheckpointEntity } from './license-checkpoint.entity';
import {
  checkpointMessage,
  type CheckpointFacts,
  firstBrokenLink,
  LEDGER_GENESIS_HASH,
  ledgerDigest,
} from './license-ledger';
import { LicenseRepository, type LicenseTx, type SlotCandidate } from './license.repository';
import type { LicenseStateEntity } from './license-state.entity';

export type { EphemeralAdmissionFacts } from './license.repository';
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

export interface LicenseAttestation {
  mode: LicenseMode;
  licenseB64: string;
  nonce: string;
  deploymentInstanceKey: string;
  signature: string;
}

export interface ReanchorResult {
  activeCount: number;
  recount: number;
  devicesWithCertificates: number;
  checkpointCount: number;
  placeholders: number;
  previousTamperReason: string | null;
}

export interface SlotDecision {
  /** Identity keys refused: for lack of slots, or all new ones while in `tamper`. */
  refused: Set<string>;
  /** Error code of the refused rows. */
  refusal: 'license_limit' | 'license_tamper';
  /** Counts the admitted new identities; call once their issuance is persisted. */
  commit(issued: readonly SlotCandidate[], at: Date): Promise<void>;
}

/** AAD label binding the sealed deployment instance key to its role. */
export const INSTANCE_KEY_LABEL = 'license/instance/v1';

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
  private readonly vendorKey: KeyObject | undefined;
  private instanceKey: { publicKey: string; privateKey: KeyObject } | undefined;

  constructor(
    private readonly licenses: LicenseRepository,
    private readonly audit: AuditService,
    private readonly logger: PinoLogger,
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
      const tamper = state?.tamperReason ?? (await this.integrityProblem(tx, state));
      if (tamper) {
        if (!state?.tamperReason) await this.enterTamper(tamper, 'before a counted issuance');
        return {
          refused: new Set(identityKeys.filter((k) => !held.has(k))),
          refusal: 'license_tamper',
          // Nothing to count: only identities already holding a slot go through.
          commit: () => Promise.resolve(),
        };
      }
    }
    const used = await tx.slotCount();
    const { maxDevices } = this.effective(state, new Date());
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
        await this.checkpoint(tx, at, false);
      },
    };
  }

  /**
   * Checks the usage ledger: signatures of the latest checkpoint and of the latest anchor,
   * the hash chain from the anchor (or the genesis), no rows missing after or added beyond the
   * latest checkpoint, and the slots in use equal to its signed count. The reason, or undefined.
   */
  async integrityProblem(
    tx: LicenseTx,
    state: LicenseStateEntity | null,
  ): Promise<string | undefined> {
    if (!state) return undefined;
    const { latest, anchor } = await tx.checkpoints();
    for (const cp of [anchor, latest]) {
      if (cp && !this.checkpointVerifies(cp, state.instancePublicKey)) {
        return `checkpoint ${cp.id} does not verify with the deployment instance key`;
      }
    }
    const start = anchor
      ? { seq: BigInt(anchor.seq), hash: anchor.hash }
      : { seq: 0n, hash: LEDGER_GENESIS_HASH };
    const all = await tx.entriesAfter(0n);
    if (anchor && ledgerDigest(all.filter((e) => e.seq <= start.seq)) !== anchor.prefixDigest) {
      return `ledger rows up to ${start.seq} changed since the re-anchoring (checkpoint ${anchor.id})`;
    }
    const entries = all.filter((e) => e.seq > start.seq);
    const broken = firstBrokenLink(entries, start);
    if (broken !== undefined) return `ledger row ${broken} breaks the hash chain`;
    if (!latest) return undefined;
    const headSeq = entries.at(-1)?.seq ?? start.seq;
    const signedSeq = BigInt(latest.seq);
    if (signedSeq > headSeq) {
      return `ledger rows after ${headSeq} are missing (signed checkpoint at ${signedSeq})`;
    }
    if (signedSeq < headSeq) return `ledger rows after ${signedSeq} carry no signed checkpoint`;
    const slots = await tx.slotCount();
    if (slots !== latest.slotCount) {
      return `license_slots holds ${slots} rows, the signed checkpoint ${latest.slotCount}`;
    }
    return undefined;
  }

  /** The ledger check at start (`DeploymentInstanceKeyBootstrap`). */
  async checkAtStart(): Promise<void> {
    await this.licenses.transaction(async (tx) => {
      const state = await tx.state();
      if (state?.tamperReason) {
        this.logger.error(
          { since: state.tamperAt?.toISOString(), reason: state.tamperReason },
          'license ledger in tamper: new issuance refused until POST /api/v1/license/reanchor',
        );
        return;
      }
      const problem = await this.integrityProblem(tx, state);
      if (problem) await this.enterTamper(problem, 'at start');
    });
  }

  /**
   * `POST /license/reanchor`: slots = surviving ledger identities ∪ devices with issued
   * non-revoked certificates, topped up with placeholders to max(recount, devices, last
   * verified checkpoint); a new anchor checkpoint; `tamper` cleared.
   */
  async reanchor(actor: Actor): Promise<ReanchorResult> {
    const result = await this.licenses.transaction(async (tx) => {
      const state = await tx.state();
      const at = new Date();
      const recount = await tx.recountedIdentities();
      const live = await tx.identitiesWithLiveCertificates();
      const confirmed = state
        ? (await tx.recentCheckpoints(1000)).find((cp) =>
            this.checkpointVerifies(cp, state.instancePublicKey),
          )
        : undefined;
      const checkpointCount = confirmed?.slotCount ?? 0;
      const slots = new Map<string, string | null>(recount.map((k) => [k, null]));
      for (const d of live) slots.set(d.identityKey, d.deviceId);
      const count = Math.max(recount.length, live.length, checkpointCount, slots.size);
      const head = await tx.head();
      const placeholders = count - slots.size;
      for (let i = 1; i <= placeholders; i += 1) slots.set(`ph:${head.seq}-${i}`, null);
      await tx.replaceSlots(
        [...slots].map(([identityKey, deviceId]) => ({ identityKey, deviceId })),
        head.seq,
        at,
      );
      await tx.raiseHighWater();
      await this.checkpoint(tx, at, true);
      await tx.clearTamper();
      return {
        activeCount: count,
        recount: recount.length,
        devicesWithCertificates: live.length,
        checkpointCount,
        placeholders,
        previousTamperReason: state?.tamperReason ?? null,
      };
    });
    this.logger.warn(
      {
        active_count: result.activeCount,
        recount: result.recount,
        devices_with_certificates: result.devicesWithCertificates,
        checkpoint_count: result.checkpointCount,
        placeholders: result.placeholders,
        previous_tamper_reason: result.previousTamperReason,
      },
      'license ledger re-anchored',
    );
    await this.audit.record({
      action: 'license.reanchor',
      actor,
      details: {
        active_count: result.activeCount,
        recount: result.recount,
        devices_with_certificates: result.devicesWithCertificates,
        checkpoint_count: result.checkpointCount,
        placeholders: result.placeholders,
      },
    });
    return result;
  }

  private async enterTamper(reason: string, when: string): Promise<void> {
    await this.licenses.setTamper(reason, new Date());
    this.logger.error(
      { check: when, reason },
      'license ledger failed its integrity check: tamper (new issuance refused with license_tamper until POST /api/v1/license/reanchor)',
    );
  }

  /** Signs and stores a checkpoint of the current ledger head and slot count. */
  private async checkpoint(tx: LicenseTx, at: Date, anchor: boolean): Promise<void> {
    const state = await tx.state();
    if (!state) return;
    const head = await tx.head();
    const facts: CheckpointFacts = {
      seq: head.seq,
      hash: head.hash,
      slotCount: await tx.slotCount(),
      anchor,
      prefixDigest: anchor ? ledgerDigest(await tx.entriesAfter(0n)) : null,
      at,
    };
    const signature = sign(null, checkpointMessage(facts), this.instancePrivateKey(state));
    await tx.writeCheckpoint(facts, signature.toString('base64'));
  }

  private checkpointVerifies(cp: LicenseCheckpointEntity, instancePublicKey: string): boolean {
    const key = ed25519PublicKey(instancePublicKey);
    if (!key) return false;
    const facts: CheckpointFacts = {
      seq: BigInt(cp.seq),
      hash: cp.hash,
      slotCount: cp.slotCount,
      anchor: cp.anchor,
      prefixDigest: cp.prefixDigest,
      at: cp.at,
    };
    const signature = Buffer.from(cp.signature, 'base64');
    return signature.length === 64 && verify(null, checkpointMessage(facts), key, signature);
  }

  /** The deployment instance private key (unsealed once, kept in memory). */
  private instancePrivateKey(state: LicenseStateEntity): KeyObject {
    if (this.instanceKey?.publicKey !== state.instancePublicKey) {
      const der = openPrivateKey(
        state.instanceEncryptedPrivateKey,
        this.config.pki.caKeyEncryptionKey,
        INSTANCE_KEY_LABEL,
      );
      try {
        this.instanceKey = {
          publicKey: state.instancePublicKey,
          privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }),
        };
      } finally {
        der.fill(0);
      }
    }
    return this.instanceKey.privateKey;
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

  /**
   * `POST /license/attest`: the stored license (`''` in free mode) and the deployment instance
   * key's signature over (`certsvc-license-attest/v1`, nonce, license), NUL-separated.
   */
  async attest(nonce: string): Promise<LicenseAttestation> {
    const state = await this.licenses.state();
    if (!state) throw new LicenseError('license_invalid', 'the deployment instance key is missing');
    const license = this.effective(state, new Date());
    const licenseB64 = license.terms ? (state.licenseB64 ?? '') : '';
    const signature = sign(null, attestMessage(nonce, licenseB64), this.instancePrivateKey(state));
    return {
      mode: license.mode,
      licenseB64,
      nonce,
      deploymentInstanceKey: state.instancePublicKey,
      signature: signature.toString('base64'),
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
    await this.checkpoint(tx, at, false);
    return true;
  }

  async status(): Promise<LicenseStatus> {
    const now = new Date();
    const [state, activeCount, byPurpose] = await Promise.all([
      this.licenses.state(),
      this.licenses.slotCount(),
      this.licenses.seatHolders(now),
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
