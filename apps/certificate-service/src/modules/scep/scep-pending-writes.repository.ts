import type { EntityManager } from 'typeorm';
import type { PendingPollState } from '@platform/pki';

/**
 * Writes of the `scep_pending` table that issuance makes: the records of a batch's requests
 * that an asynchronous CA answered PENDING, in the same transaction that moves them to
 * `ca_pending` (no request in `ca_pending` without its record, and no record for a rolled-back
 * approval). The scep module owns the table.
 */
export interface NewScepPending {
  requestId: string;
  transactionId: string;
  issuerKind: string;
  pollState: PendingPollState | null;
  deviceId: string;
  purpose: string;
  subject: string;
  userIdentity: string | null;
}

/** One multi-row INSERT; the first poll is due at once (the poller's next run). */
export async function insertScepPending(
  em: EntityManager,
  rows: readonly NewScepPending[],
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await em.query(
    `INSERT INTO scep_pending (request_id, transaction_id, issuer_kind, poll_state, device_id,
         purpose, subject, user_identity, attempts, next_poll_at, last_error, created_at)
       SELECT r, t, k, ps::jsonb, d, p, s, u, 0, $9::timestamptz, NULL, $9::timestamptz
       FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::text[], $5::uuid[],
                   $6::varchar[], $7::varchar[], $8::varchar[]) AS x(r, t, k, ps, d, p, s, u)`,
    [
      rows.map((r) => r.requestId),
      rows.map((r) => r.transactionId),
      rows.map((r) => r.issuerKind),
      rows.map((r) => (r.pollState === null ? null : JSON.stringify(r.pollState))),
      rows.map((r) => r.deviceId),
      rows.map((r) => r.purpose),
      rows.map((r) => r.subject),
      rows.map((r) => r.userIdentity),
      at,
    ],
  );
}
