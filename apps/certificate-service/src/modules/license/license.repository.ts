import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  chainEntries,
  type ChainedLedgerEntry,
  type CheckpointFacts,
  LEDGER_GENESIS_HASH,
  type LedgerEvent,
} from './license-ledger';
import { LicenseCheckpointEntity } from './license-checkpoint.entity';
import { LicenseStateEntity } from './license-state.entity';
import { WebhookOutbox } from '../webhooks/webhook-outbox';

/** Serializes every ledger append and slot count (API replicas included). */
const LEDGER_LOCK = `SELECT pg_advisory_xact_lock(hashtext('certsvc:license-ledger'))`;

/**
 * A request waiting at an asynchronous CA (`ca_pending`, SCEP) holds the seat of its purpose
 * like the certificate it will become: the CA may issue at any poll, and a seat check that
 * ignored it would let two approvals take the last seat.
 */
const CA_PENDING_SEATS = `SELECT device_id, purpose FROM certificate_requests WHERE status = 'ca_pending'`;

/** Seats in use per purpose (`$1` = now); see `LicenseRepository.seatHolders`. */
const SEAT_HOLDERS = `SELECT p AS purpose, count(DISTINCT device_id)::int AS n FROM (
  SELECT id AS device_id, unnest(assigned_purposes) AS p FROM devices
  UNION ALL
  SELECT device_id, purpose FROM certificates WHERE status = 'active' AND not_after > $1
  UNION ALL
  ${CA_PENDING_SEATS}
  UNION ALL
  SELECT device_id, 'k8s' FROM k8s_credentials WHERE not_after > $1
) held GROUP BY p`;

/** Purposes whose seat device `$1` holds at `$2`; see `LicenseRepository.seatsHeldBy`. */
const SEATS_HELD_BY = `SELECT unnest(assigned_purposes) AS p FROM devices WHERE id = $1
  UNION SELECT purpose FROM certificates WHERE device_id = $1 AND status = 'active' AND not_after > $2
  UNION SELECT purpose FROM certificate_requests WHERE device_id = $1 AND status = 'ca_pending'
  UNION SELECT 'k8s' FROM k8s_credentials WHERE device_id = $1 AND not_after > $2`;

export interface EphemeralAdmissionFacts {
  deviceId: string;
  identityKey: string;
  instancePublicKey: string;
  licenseB64: string | null;
  tamperReason: string | null;
  seatEnforcement: number;
  slotHeld: boolean;
  seatHeld: boolean;
}

export interface SlotCandidate {
  identityKey: string;
  deviceId: string | null;
}

/** Ledger and slot statements inside a transaction holding the ledger lock. */
export class LicenseTx {
  constructor(readonly em: EntityManager) {}

  async slotsHeld(identityKeys: readonly string[]): Promise<Set<string>> {
    if (identityKeys.length === 0) return new Set();
    const rows = (await this.em.query(
      `SELECT identity_key FROM license_slots WHERE identity_key = ANY($1::varchar[])`,
      [identityKeys],
    )) as { identity_key: string }[];
    return new Set(rows.map((r) => r.identity_key));
  }

  async slotCount(): Promise<number> {
    const rows = (await this.em.query(`SELECT count(*)::int AS n FROM license_slots`)) as {
      n: number;
    }[];
    return rows[0].n;
  }

  state(): Promise<LicenseStateEntity | null> {
    return this.em.getRepository(LicenseStateEntity).findOneBy({ id: 1 });
  }

  /** The ledger head: last row, or the genesis (seq 0) on an empty ledger. */
  async head(): Promise<{ seq: bigint; hash: string }> {
    const last = (await this.em.query(
      `SELECT seq, hash FROM license_ledger ORDER BY seq DESC LIMIT 1`,
    )) as { seq: string; hash: string }[];
    return last[0]
      ? { seq: BigInt(last[0].seq), hash: last[0].hash }
      : { seq: 0n, hash: LEDGER_GENESIS_HASH };
  }

  /** Ledger rows after `seq`, in order. */
  async entriesAfter(seq: bigint): Promise<ChainedLedgerEntry[]> {
    const rows = (await this.em.query(
      `SELECT seq, identity_key, event, at, prev_hash, hash FROM license_ledger WHERE seq > $1 ORDER BY seq`,
      [seq.toString()],
    )) as {
      seq: string;
      identity_key: string;
      event: LedgerEvent;
      at: Date;
      prev_hash: string;
      hash: string;
    }[];
    return rows.map((r) => ({
      seq: BigInt(r.seq),
      identityKey: r.identity_key,
      event: r.event,
      at: r.at,
      prevHash: r.prev_hash,
      hash: r.hash,
    }));
  }

  async clearTamper(): Promise<void> {
    await this.em.query(
      `UPDATE license_state SET tamper_reason = NULL, tamper_at = NULL, updated_at = now() WHERE id = 1`,
    );
  }

  async raiseHighWater(): Promise<void> {
    await this.em.query(
      `UPDATE license_state SET high_water = GREATEST(high_water, (SELECT count(*) FROM license_slots)), updated_at = now() WHERE id = 1`,
    );
  }

  /**
   * `deviceId|purpose` pairs among these devices holding an active, unexpired certificate (or,
   * for `k8s`, an unexpired Kubernetes credential).
   */
  async activeCertificatePurposes(deviceIds: readonly string[], now: Date): Promise<Set<string>> {
    if (deviceIds.length === 0) return new Set();
    const rows = (await this.em.query(
      `SELECT device_id, purpose FROM certificates
       WHERE device_id = ANY($1::uuid[]) AND status = 'active' AND not_after > $2
       UNION SELECT device_id, purpose FROM certificate_requests
       WHERE device_id = ANY($1::uuid[]) AND status = 'ca_pending'
       UNION SELECT device_id, 'k8s' FROM k8s_credentials
       WHERE device_id = ANY($1::uuid[]) AND not_after > $2`,
      [deviceIds, now],
    )) as { device_id: string; purpose: string }[];
    return new Set(rows.map((r) => `${r.device_id}|${r.purpose}`));
  }

  /**
   * Devices holding an active, unexpired certificate or a request waiting at the CA
   * (`ca_pending`; for `k8s` also an unexpired Kubernetes credential), per purpose: seats
   * taken by issuance.
   */
  async issuedSeats(now: Date): Promise<Map<string, number>> {
    const rows = (await this.em.query(
      `SELECT purpose, count(DISTINCT device_id)::int AS n FROM (
         SELECT device_id, purpose FROM certificates WHERE status = 'active' AND not_after > $1
         UNION ALL ${CA_PENDING_SEATS}
         UNION ALL SELECT device_id, 'k8s' FROM k8s_credentials WHERE not_after > $1
       ) issued GROUP BY purpose`,
      [now],
    )) as { purpose: string; n: number }[];
    return new Map(rows.map((r) => [r.purpose, r.n]));
  }

  /** Seats in use per purpose, read under the ledger lock (see `LicenseRepository`). */
  async seatHolders(now: Date): Promise<Map<string, number>> {
    const rows = (await this.em.query(SEAT_HOLDERS, [now])) as { purpose: string; n: number }[];
    return new Map(rows.map((r) => [r.purpose, r.n]));
  }

  /** Purposes whose seat one device holds, read under the ledger lock. */
  async seatsHeldBy(deviceId: string, now: Date): Promise<Set<string>> {
    const rows = (await this.em.query(SEATS_HELD_BY, [deviceId, now])) as { p: string }[];
    return new Set(rows.map((r) => r.p));
  }

  /** The most recent checkpoints, newest first. */
  recentCheckpoints(limit: number): Promise<LicenseCheckpointEntity[]> {
    return this.em
      .getRepository(LicenseCheckpointEntity)
      .find({ order: { id: 'DESC' }, take: limit });
  }

  /** The latest checkpoint, and the latest anchor checkpoint. */
  async checkpoints(): Promise<{
    latest: LicenseCheckpointEntity | null;
    anchor: LicenseCheckpointEntity | null;
  }> {
    const repo = this.em.getRepository(LicenseCheckpointEntity);
    const [latest, anchor] = await Promise.all([
      repo.findOne({ where: {}, order: { id: 'DESC' } }),
      repo.findOne({ where: { anchor: true }, order: { id: 'DESC' } }),
    ]);
    return { latest, anchor };
  }

  async writeCheckpoint(cp: CheckpointFacts, signature: string): Promise<void> {
    await this.em.query(
      `INSERT INTO license_checkpoints (seq, hash, slot_count, anchor, prefix_digest, at, signature) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [cp.seq.toString(), cp.hash, cp.slotCount, cp.anchor, cp.prefixDigest, cp.at, signature],
    );
  }

  /** Identities whose last surviving ledger event is a count (recount of the ledger). */
  async recountedIdentities(): Promise<string[]> {
    const rows = (await this.em.query(
      `SELECT identity_key FROM (
         SELECT DISTINCT ON (identity_key) identity_key, event FROM license_ledger
         ORDER BY identity_key, seq DESC) last WHERE event = 'count'`,
    )) as { identity_key: string }[];
    return rows.map((r) => r.identity_key);
  }

  /** Identities (with device) of devices holding an issued, non-revoked certificate. */
  async identitiesWithLiveCertificates(): Promise<{ identityKey: string; deviceId: string }[]> {
    const rows = (await this.em.query(
      `SELECT DISTINCT ON (d.identity_key) d.identity_key, d.id FROM devices d
       WHERE EXISTS (SELECT 1 FROM certificates c WHERE c.device_id = d.id AND c.status = 'active')
          OR EXISTS (SELECT 1 FROM ssh_certificates s WHERE s.device_id = d.id AND s.status = 'active')
       ORDER BY d.identity_key, d.created_at DESC`,
    )) as { identity_key: string; id: string }[];
    return rows.map((r) => ({ identityKey: r.identity_key, deviceId: r.id }));
  }

  /** Replaces every slot (re-anchoring), one statement each. */
  async replaceSlots(slots: readonly SlotCandidate[], ledgerSeq: bigint, at: Date): Promise<void> {
    await this.em.query(`DELETE FROM license_slots`);
    await this.em.query(
      `INSERT INTO license_slots (identity_key, device_id, counted_at, ledger_seq)
       SELECT k, d, $3, $4 FROM unnest($1::varchar[], $2::uuid[]) AS t(k, d)`,
      [slots.map((s) => s.identityKey), slots.map((s) => s.deviceId), at, ledgerSeq.toString()],
    );
  }

  /** Counts new identities: ledger rows (one INSERT), slots (one INSERT), high-water mark. */
  async count(candidates: readonly SlotCandidate[], at: Date): Promise<void> {
    if (candidates.length === 0) return;
    const entries = await this.append(
      candidates.map((c) => ({ identityKey: c.identityKey, event: 'count' as const })),
      at,
    );
    await this.em.query(
      `INSERT INTO license_slots (identity_key, device_id, counted_at, ledger_seq)
       SELECT k, d, $3, s FROM unnest($1::varchar[], $2::uuid[], $4::bigint[]) AS t(k, d, s)
       ON CONFLICT (identity_key) DO NOTHING`,
      [
        candidates.map((c) => c.identityKey),
        candidates.map((c) => c.deviceId),
        at,
        entries.map((e) => e.seq.toString()),
      ],
    );
    await this.em.query(
      `UPDATE license_state SET high_water = GREATEST(high_water, (SELECT count(*) FROM license_slots)), updated_at = now() WHERE id = 1`,
    );
  }

  /** Frees a slot; false when the identity holds none. */
  async decommission(identityKey: string, at: Date): Promise<boolean> {
    const deleted = (await this.em.query(
      `DELETE FROM license_slots WHERE identity_key = $1 RETURNING identity_key`,
      [identityKey],
    )) as [unknown[], number];
    if (deleted[1] === 0) return false;
    await this.append([{ identityKey, event: 'decommission' }], at);
    return true;
  }

  private async append(rows: { identityKey: string; event: LedgerEvent }[], at: Date) {
    const head = await this.head();
    const entries = chainEntries(head, rows, at);
    await this.em.query(
      `INSERT INTO license_ledger (seq, identity_key, event, at, prev_hash, hash)
       SELECT * FROM unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::timestamptz[], $5::varchar[], $6::varchar[])`,
      [
        entries.map((e) => e.seq.toString()),
        entries.map((e) => e.identityKey),
        entries.map((e) => e.event),
        entries.map((e) => e.at),
        entries.map((e) => e.prevHash),
        entries.map((e) => e.hash),
      ],
    );
    return entries;
  }
}

@Injectable()
export class LicenseRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: WebhookOutbox,
  ) {}

  /** A transaction holding the ledger lock for its whole duration. */
  transaction<T>(work: (tx: LicenseTx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (em) => {
      await em.query(LEDGER_LOCK);
      return work(new LicenseTx(em));
    });
  }

  state(): Promise<LicenseStateEntity | null> {
    return this.dataSource.getRepository(LicenseStateEntity).findOneBy({ id: 1 });
  }

  async setSeatEnforcement(step: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE license_state SET seat_enforcement = $1, updated_at = now() WHERE id = 1`,
      [step],
    );
  }

  /**
   * What admitting one issuance without a request needs (Kubernetes credentials), in one
   * statement keyed by the caller's certificate serial (so it can run beside the caller's own
   * look-up): the license state, the certificate's device and its identity key, whether that
   * identity holds a device slot and whether the device holds the purpose's seat (assigned,
   * active certificate, unexpired k8s credential). Undefined for an unknown certificate.
   */
  async ephemeralAdmissionFacts(
    certificateSerial: string,
    purpose: string,
    now: Date,
  ): Promise<EphemeralAdmissionFacts | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT s.instance_public_key AS "instancePublicKey", s.license_b64 AS "licenseB64",
              s.tamper_reason AS "tamperReason", s.seat_enforcement AS "seatEnforcement",
              d.id AS "deviceId", d.identity_key AS "identityKey",
              EXISTS (SELECT 1 FROM license_slots WHERE identity_key = d.identity_key) AS "slotHeld",
              ($2 = ANY(d.assigned_purposes)
               OR EXISTS (SELECT 1 FROM certificates x WHERE x.device_id = d.id AND x.purpose = $2
                          AND x.status = 'active' AND x.not_after > $3)
               OR ($2 = 'k8s' AND EXISTS (SELECT 1 FROM k8s_credentials k
                                          WHERE k.device_id = d.id AND k.not_after > $3))) AS "seatHeld"
         FROM license_state s
         JOIN certificates c ON c.serial = $1
         JOIN devices d ON d.id = c.device_id
        WHERE s.id = 1`,
      [certificateSerial, purpose, now],
    )) as EphemeralAdmissionFacts[];
    return rows[0];
  }

  /** Enters `tamper` (outside any ledger transaction, so a refused approval keeps it). */
  /** Enters `tamper` (once); entering writes its `license.tamper` webhook event with it. */
  async setTamper(reason: string, at: Date): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const [, changed] = (await em.query(
        `UPDATE license_state SET tamper_reason = $1, tamper_at = $2, updated_at = now() WHERE id = 1 AND tamper_reason IS NULL`,
        [reason, at],
      )) as [unknown, number];
      if (changed > 0) {
        await this.outbox.enqueue(em, [
          { type: 'license.tamper', data: { reason, at: at.toISOString() } },
        ]);
      }
    });
  }

  async createStateIfAbsent(publicKey: string, encryptedPrivateKey: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO license_state (id, instance_public_key, instance_encrypted_private_key)
       VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING`,
      [publicKey, encryptedPrivateKey],
    );
  }

  /** Stores an activated license (replacing the previous one). */
  /** Stores an accepted license with its `license.activated` webhook event (one transaction). */
  async storeLicense(
    licenseB64: string,
    at: Date,
    event: Record<string, unknown> = {},
  ): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await em.query(
        `UPDATE license_state SET license_b64 = $1, license_activated_at = $2, updated_at = now() WHERE id = 1`,
        [licenseB64, at],
      );
      await this.outbox.enqueue(em, [
        { type: 'license.activated', data: { ...event, activated_at: at.toISOString() } },
      ]);
    });
  }

  async slotCount(): Promise<number> {
    const rows = (await this.dataSource.query(`SELECT count(*)::int AS n FROM license_slots`)) as {
      n: number;
    }[];
    return rows[0].n;
  }

  /**
   * Seats in use per purpose: devices with the purpose assigned or holding an active,
   * unexpired certificate of it, or (`k8s`) an unexpired Kubernetes credential (a device counts
   * once per purpose).
   */
  async seatHolders(now: Date): Promise<Map<string, number>> {
    const rows = (await this.dataSource.query(SEAT_HOLDERS, [now])) as {
      purpose: string;
      n: number;
    }[];
    return new Map(rows.map((r) => [r.purpose, r.n]));
  }

  /**
   * Purposes whose seat one device holds (assigned, an active unexpired certificate, or for
   * `k8s` an unexpired Kubernetes credential).
   */
  async seatsHeldBy(deviceId: string, now: Date): Promise<Set<string>> {
    const rows = (await this.dataSource.query(SEATS_HELD_BY, [deviceId, now])) as { p: string }[];
    return new Set(rows.map((r) => r.p));
  }
}
