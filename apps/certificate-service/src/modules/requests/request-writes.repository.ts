import type { ParsedCsr } from '@platform/pki';
import type { EntityManager } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import { CertificateRequestEntity } from './certificate-request.entity';
import type { RequestStatus } from './request-status';

/**
 * Writes of the `certificate_requests` table that other modules make — enrollment (a new
 * request, the pending ones it replaces), approval (rejections) and issuance (the decisions of
 * a batch) — set-based, on the `EntityManager` they pass: their transaction, or the data
 * source's manager. The requests module owns the table; nothing else writes it.
 */

export type NewRequest = Omit<
  CertificateRequestEntity,
  | 'device'
  | 'createdAt'
  | 'updatedAt'
  | 'decidedAt'
  | 'decidedBy'
  | 'statusReason'
  | 'installedAt'
  | 'installedAgentVersion'
>;

/** The columns a new request takes from its parsed CSR (device and user enrollment alike). */
export function csrColumns(
  csr: ParsedCsr,
): Pick<
  NewRequest,
  'csrDer' | 'publicKeySpkiDer' | 'publicKeyHash' | 'keyAlgorithm' | 'subjectCommonName'
> {
  return {
    csrDer: csr.der,
    publicKeySpkiDer: csr.publicKeySpkiDer,
    publicKeyHash: csr.publicKeyHash,
    keyAlgorithm: csr.keyAlgorithm,
    subjectCommonName: csr.subjectCommonName ?? null,
  };
}

export interface RequestDecision {
  id: string;
  status: RequestStatus;
  reason: string | null;
}

export async function insertRequest(em: EntityManager, request: NewRequest): Promise<void> {
  await em.getRepository(CertificateRequestEntity).insert(request);
}

/**
 * The `INSERT` of `insertRequest` as a member of the caller's `WITH` statement: one row per
 * row of the relation `devices` (its `id` is the request's device), `RETURNING id`.
 * Parameters numbered from `first`; columns not named take their defaults.
 */
export function insertRequestForDevicesSql(
  request: Omit<NewRequest, 'deviceId'>,
  first: number,
  devices: string,
): { sql: string; params: unknown[] } {
  const p = (i: number) => `$${first + i}`;
  return {
    sql: `INSERT INTO certificate_requests (id, device_id, purpose, status, csr_der,
                public_key_spki_der, public_key_hash, key_algorithm, subject_common_name,
                requester_kind, requested_by, user_identity, upn, sid, registered_during_block,
                agent_secret_hash, agent_version, source_auth, attestation, app_attest)
         SELECT ${p(0)}::uuid, ${devices}.id, ${p(1)}::varchar, ${p(2)}::varchar, ${p(3)}::bytea,
                ${p(4)}::bytea, ${p(5)}::varchar, ${p(6)}::varchar, ${p(7)}::varchar,
                ${p(8)}::varchar, ${p(9)}::varchar, ${p(10)}::varchar, ${p(11)}::varchar,
                ${p(12)}::varchar, ${p(13)}::boolean, ${p(14)}::varchar, ${p(15)}::varchar,
                ${p(16)}::varchar, ${p(17)}::varchar, ${p(18)}::varchar
           FROM ${devices}
         RETURNING id`,
    params: [
      request.id,
      request.purpose,
      request.status,
      request.csrDer,
      request.publicKeySpkiDer,
      request.publicKeyHash,
      request.keyAlgorithm,
      request.subjectCommonName,
      request.requesterKind,
      request.requestedBy,
      request.userIdentity,
      request.upn,
      request.sid,
      request.registeredDuringBlock,
      request.agentSecretHash,
      request.agentVersion,
      request.sourceAuth,
      request.attestation,
      request.appAttest ?? null,
    ],
  };
}

/** Pending requests of the same device, purpose and user are superseded (by a new one). */
export async function supersedePendingRequests(
  em: EntityManager,
  deviceId: string,
  purpose: Purpose,
  userIdentity: string | null,
): Promise<void> {
  await em.query(
    `UPDATE certificate_requests SET status = 'superseded', updated_at = now()
        WHERE device_id = $1 AND purpose = $2 AND status = 'pending'
          AND user_identity IS NOT DISTINCT FROM $3`,
    [deviceId, purpose, userIdentity],
  );
}

/** Rejects the requests still pending (one UPDATE); returns their ids. */
export async function rejectPendingRequests(
  em: EntityManager,
  ids: readonly string[],
  reason: string | null,
  decidedBy: string,
  at: Date,
): Promise<Set<string>> {
  const rows = (await em.query(
    `UPDATE certificate_requests SET status = 'rejected', status_reason = $2, decided_by = $3,
         decided_at = $4, updated_at = $4
       WHERE id = ANY($1::uuid[]) AND status = 'pending' RETURNING id`,
    [ids, reason, decidedBy, at],
  )) as [{ id: string }[], number];
  return new Set(rows[0].map((r) => r.id));
}

/** One UPDATE ... FROM unnest for every decided request. */
export async function decideRequests(
  em: EntityManager,
  rows: readonly RequestDecision[],
  decidedBy: string,
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await em.query(
    `UPDATE certificate_requests r SET status = u.status, status_reason = u.reason,
         decided_at = $1, decided_by = $2, updated_at = $1
       FROM unnest($3::uuid[], $4::varchar[], $5::varchar[]) AS u(id, status, reason)
       WHERE r.id = u.id`,
    [at, decidedBy, rows.map((r) => r.id), rows.map((r) => r.status), rows.map((r) => r.reason)],
  );
}
