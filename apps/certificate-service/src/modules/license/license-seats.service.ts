import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import type { Actor } from '../../app/access/actor';
import { AuditService } from '../audit/audit.service';
import { LicenseError } from './license.errors';
import {
  type EphemeralAdmissionFacts,
  LicenseRepository,
  type LicenseTx,
} from './license.repository';
import { EffectiveLicenseService } from './effective-license.service';
import { LicenseSlotsService, type SlotDecision } from './license-slots.service';

function seatLimit(purpose: Purpose, inUse: number, bought: number): LicenseError {
  return new LicenseError(
    'license_purpose_limit',
    `no seats of ${purpose} remain (${inUse} of ${bought} in use)`,
  );
}

/**
 * Purpose seats of the license in force (specification "Licensing rules"): the check at
 * assignment, at approval and at an issuance without request (Kubernetes credentials), and the
 * enforcement step (1 count, 2 log and highlight, 3 refuse). Device slots, the ledger and the
 * license file are LicenseSlotsService, LicenseLedgerService and EffectiveLicenseService.
 */
@Injectable()
export class LicenseSeatsService {
  private readonly logger = new Logger('LicenseSeats');
  constructor(
    private readonly license: EffectiveLicenseService,
    private readonly slots: LicenseSlotsService,
    private readonly licenses: LicenseRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * Assigning purposes to a device, with the seat check of an assignment (always applied
   * while the license in force carries seats; silent otherwise): each purpose the device does
   * not hold yet needs a free seat, else `license_purpose_limit` and `assign` does not run.
   * Purposes it already holds are not re-checked. Under seats the check and `assign` run in
   * one transaction holding the ledger lock (`assign` gets its `em`), so two assignments racing
   * for the last seat serialize: the second sees the first's assignment and is refused.
   */
  async assignPurposes<T>(
    deviceId: string,
    purposes: readonly Purpose[],
    assign: (em: EntityManager | undefined) => Promise<T>,
  ): Promise<T> {
    const now = new Date();
    const seats = this.license.effective(await this.licenses.state(), now).purposeSeats;
    if (!seats) return assign(undefined);
    return this.licenses.transaction(async (tx) => {
      const held = await tx.seatsHeldBy(deviceId, now);
      const fresh = purposes.filter((p) => !held.has(p));
      if (fresh.length > 0) {
        const used = await tx.seatHolders(now);
        for (const purpose of fresh) {
          const bought = seats[purpose] ?? 0;
          const inUse = used.get(purpose) ?? 0;
          if (inUse >= bought) throw seatLimit(purpose, inUse, bought);
        }
      }
      return assign(tx.em);
    });
  }

  /**
   * Seat check at approval (inside the ledger transaction): a request whose device holds no
   * active certificate of its purpose takes a seat; over the license's seats, step 3 refuses
   * it (request ids returned), step 2 logs it and issues, step 1 only counts. Renewals of an
   * occupied seat take nothing; silent when the license in force carries no seats.
   */
  async seatRefusals(
    tx: LicenseTx,
    rows: readonly { requestId: string; deviceId: string; purpose: Purpose }[],
  ): Promise<Set<string>> {
    const refused = new Set<string>();
    if (rows.length === 0) return refused;
    const now = new Date();
    const state = await tx.state();
    const seats = this.license.effective(state, now).purposeSeats;
    if (!seats) return refused;
    const step = state?.seatEnforcement ?? 1;
    const held = await tx.activeCertificatePurposes([...new Set(rows.map((r) => r.deviceId))], now);
    const used = await tx.issuedSeats(now);
    const over = new Set<string>();
    for (const row of rows) {
      const key = `${row.deviceId}|${row.purpose}`;
      if (over.has(key)) {
        refused.add(row.requestId);
        continue;
      }
      if (held.has(key)) continue;
      const bought = seats[row.purpose] ?? 0;
      const inUse = used.get(row.purpose) ?? 0;
      if (inUse < bought) {
        used.set(row.purpose, inUse + 1);
        held.add(key);
        continue;
      }
      if (step === 3) {
        over.add(key);
        refused.add(row.requestId);
      } else if (step === 2) {
        held.add(key);
        this.logger.warn(
          { request_id: row.requestId, purpose: row.purpose, bought, used: inUse },
          'purpose seats exceeded at approval (seat enforcement step 2: issued)',
        );
      }
    }
    return refused;
  }

  /**
   * Admission of an issuance that has no request and no approval: a Kubernetes credential
   * (`POST /api/v1/k8s/credential`, specification "Certificate lifetimes"). Each call is a new
   * issuance (there is no renewal of a credential), so:
   * - in `tamper` it is refused with `license_tamper` (new issuance blocked);
   * - a device without a slot is a new counted issuance: the ledger is checked first (failure:
   *   `tamper`, `license_tamper`), over `max_devices` it is refused with `license_limit`, else
   *   the device is counted in the ledger (a signed checkpoint follows);
   * - under a license with seats, a device not holding the purpose's seat takes one: over the
   *   seats step 3 refuses (`license_purpose_limit`), step 2 logs and issues, step 1 counts;
   *   a device holding it (assigned, or an unexpired credential) consumes nothing.
   * `persist` records the issuance (the row that holds the seat); when a slot or a seat is
   * taken it runs inside the ledger transaction (its `em`), so concurrent takers serialize.
   * `facts` come from `ephemeralAdmissionFacts` (read beside the caller's own look-up); the
   * caller's certificate must be known (its device is the one admitted).
   */
  async admitEphemeralIssuance<T>(
    facts: EphemeralAdmissionFacts | undefined,
    purpose: Purpose,
    persist: (em: EntityManager | undefined) => Promise<T>,
    now = new Date(),
  ): Promise<T> {
    if (!facts) throw new LicenseError('license_invalid', 'the deployment instance key is missing');
    const { deviceId, identityKey } = facts;
    if (facts.tamperReason) {
      throw new LicenseError(
        'license_tamper',
        `the license ledger is in tamper: ${facts.tamperReason}`,
      );
    }
    const seats = this.license.effective(facts, now).purposeSeats;
    if (facts.slotHeld && (!seats || facts.seatHeld)) return persist(undefined);
    return this.licenses.transaction(async (tx) => {
      let decision: SlotDecision | undefined;
      if (!facts.slotHeld) {
        decision = await this.slots.decide(tx, [identityKey]);
        if (decision.refused.size > 0) throw new LicenseError(decision.refusal);
      }
      if (seats && !(await tx.seatsHeldBy(deviceId, now)).has(purpose)) {
        const bought = seats[purpose] ?? 0;
        const inUse = (await tx.seatHolders(now)).get(purpose) ?? 0;
        if (inUse >= bought) {
          if (facts.seatEnforcement === 3) throw seatLimit(purpose, inUse, bought);
          if (facts.seatEnforcement === 2) {
            this.logger.warn(
              { device_id: deviceId, purpose, bought, used: inUse },
              'purpose seats exceeded at issuance (seat enforcement step 2: issued)',
            );
          }
        }
      }
      const result = await persist(tx.em);
      await decision?.commit([{ identityKey, deviceId }], now);
      return result;
    });
  }

  /**
   * The license facts of an issuance without request for the device of a certificate (one
   * statement; see `admitEphemeralIssuance`). Undefined for an unknown certificate.
   */
  ephemeralAdmissionFacts(
    certificateSerial: string,
    purpose: Purpose,
    now: Date,
  ): Promise<EphemeralAdmissionFacts | undefined> {
    return this.licenses.ephemeralAdmissionFacts(certificateSerial, purpose, now);
  }

  async seatEnforcement(): Promise<number> {
    return (await this.licenses.state())?.seatEnforcement ?? 1;
  }

  /** Sets the seat enforcement step (audited as `license.seat_enforcement_change`). */
  async setSeatEnforcement(actor: Actor, step: number): Promise<number> {
    const before = await this.seatEnforcement();
    await this.licenses.setSeatEnforcement(step);
    await this.audit.record({
      action: 'license.seat_enforcement_change',
      actor,
      details: { old: before, new: step },
    });
    return step;
  }
}
