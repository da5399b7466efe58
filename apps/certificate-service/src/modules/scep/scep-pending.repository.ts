import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { PendingPollState, X509Purpose } from '@platform/pki';

/** A claimed record with what the poll needs of its request. */
export interface ClaimedScepPending {
  requestId: string;
  transactionId: string;
  issuerKind: string;
  pollState: PendingPollState | null;
  deviceId: string;
  purpose: X509Purpose;
  subject: string;
  userIdentity: string | null;
  attempts: number;
  createdAt: Date;
  /** The lease this claim wrote into `next_poll_at` (proof the claim is still ours). */
  claimedUntil: Date;
  csrDer: Buffer;
  publicKeySpkiDer: Buffer;
  /** X.509 requests only (an `ssh` request never reaches an X.509 issuer). */
  keyAlgorithm: 'rsa' | 'ec';
}

interface ClaimedRow {
  request_id: string;
  transaction_id: string;
  issuer_kind: string;
  poll_state: PendingPollState | null;
  device_id: string;
  purpose: X509Purpose;
  subject: string;
  user_identity: string | null;
  attempts: number;
  created_at: Date;
  csr_der: Buffer;
  public_key_spki_der: Buffer;
  key_algorithm: 'rsa' | 'ec';
}

/** The scep module's statements on `scep_pending` (the only writer). */
@Injectable()
export class ScepPendingRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Claims up to `limit` due records in one statement: `FOR UPDATE SKIP LOCKED` so two
   * pollers never take the same row, and `next_poll_at` pushed past the lease so a later
   * claim skips it until this poll is recorded (or the lease ends after a crash).
   */
  async claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedScepPending[]> {
    const claimedUntil = new Date(now.getTime() + leaseMs);
    const rows = (await this.dataSource.query(
      `WITH due AS (
         SELECT request_id FROM scep_pending
         WHERE next_poll_at IS NOT NULL AND next_poll_at <= $1
         ORDER BY next_poll_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE scep_pending s SET next_poll_at = $3
       FROM due, certificate_requests r
       WHERE s.request_id = due.request_id AND r.id = s.request_id
       RETURNING s.request_id, s.transaction_id, s.issuer_kind, s.poll_state, s.device_id,
         s.purpose, s.subject, s.user_identity, s.attempts, s.created_at, r.csr_der,
         r.public_key_spki_der, r.key_algorithm`,
      [now, limit, claimedUntil],
    )) as [ClaimedRow[], number];
    return rows[0].map((r) => ({
      requestId: r.request_id,
      transactionId: r.transaction_id,
      issuerKind: r.issuer_kind,
      pollState: r.poll_state,
      deviceId: r.device_id,
      purpose: r.purpose,
      subject: r.subject,
      userIdentity: r.user_identity,
      attempts: r.attempts,
      createdAt: r.created_at,
      claimedUntil,
      csrDer: r.csr_der,
      publicKeySpkiDer: r.public_key_spki_der,
      keyAlgorithm: r.key_algorithm,
    }));
  }

  /** Another poll later: attempts counted, `last_error` set or cleared. */
  async reschedule(
    em: EntityManager,
    requestId: string,
    attempts: number,
    nextPollAt: Date | null,
    lastError: string | null,
  ): Promise<void> {
    await em.query(
      `UPDATE scep_pending SET attempts = $2, next_poll_at = $3, last_error = $4
         WHERE request_id = $1`,
      [requestId, attempts, nextPollAt, lastError?.slice(0, 500) ?? null],
    );
  }

  /**
   * Locks the record and tells whether it still carries this claim's lease: a poll slower than
   * the lease lets another poller claim the record, and then only that one records the outcome.
   */
  async stillClaimed(em: EntityManager, requestId: string, claimedUntil: Date): Promise<boolean> {
    const rows = (await em.query(
      `SELECT next_poll_at FROM scep_pending WHERE request_id = $1 FOR UPDATE`,
      [requestId],
    )) as { next_poll_at: Date | null }[];
    return rows[0]?.next_poll_at?.getTime() === claimedUntil.getTime();
  }

  async remove(em: EntityManager, requestId: string): Promise<void> {
    await em.query(`DELETE FROM scep_pending WHERE request_id = $1`, [requestId]);
  }

  /** The request's status and approver, locked for the record's outcome. */
  async lockRequest(
    em: EntityManager,
    requestId: string,
  ): Promise<{ status: string; decidedBy: string | null } | undefined> {
    const rows = (await em.query(
      `SELECT status, decided_by FROM certificate_requests WHERE id = $1 FOR UPDATE`,
      [requestId],
    )) as { status: string; decided_by: string | null }[];
    return rows[0] ? { status: rows[0].status, decidedBy: rows[0].decided_by } : undefined;
  }
}
