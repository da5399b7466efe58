import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import type { RequestStatus } from '../requests/request-status';

export interface NewCertificate {
  serial: string;
  requestId: string;
  deviceId: string;
  purpose: Purpose;
  subject: string;
  userIdentity: string | null;
  notBefore: Date;
  notAfter: Date;
  der: Buffer;
  issuerKind: string;
  /** Set when a later certificate of the same batch replaces it. */
  supersededBy: string | null;
}

export interface RequestDecision {
  id: string;
  status: RequestStatus;
  reason: string | null;
}

export interface Supersession {
  deviceId: string;
  purpose: Purpose;
  userIdentity: string | null;
  serial: string;
}

/** Set-based statements of one issuance batch (never row by row). */
export class IssuanceTx {
  constructor(private readonly em: EntityManager) {}

  /** Locks the requests that are still pending; returns their ids. */
  async claimPending(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = (await this.em.query(
      `SELECT id FROM certificate_requests WHERE id = ANY($1::uuid[]) AND status = 'pending'
       ORDER BY id FOR UPDATE`,
      [ids],
    )) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  /** Marks the previous active certificate of each device+purpose(+user) superseded. */
  async supersede(rows: readonly Supersession[], at: Date): Promise<void> {
    if (rows.length === 0) return;
    await this.em.query(
      `UPDATE certificates c SET superseded_at = $1, superseded_by = n.serial
       FROM unnest($2::uuid[], $3::varchar[], $4::varchar[], $5::varchar[])
         AS n(device_id, purpose, user_identity, serial)
       WHERE c.device_id = n.device_id AND c.purpose = n.purpose
         AND c.user_identity IS NOT DISTINCT FROM n.user_identity
         AND c.status = 'active' AND c.superseded_at IS NULL`,
      [
        at,
        rows.map((r) => r.deviceId),
        rows.map((r) => r.purpose),
        rows.map((r) => r.userIdentity),
        rows.map((r) => r.serial),
      ],
    );
  }

  /** One multi-row INSERT. */
  async insertCertificates(rows: readonly NewCertificate[], at: Date): Promise<void> {
    if (rows.length === 0) return;
    await this.em.query(
      `INSERT INTO certificates (serial, request_id, device_id, purpose, subject, user_identity,
         not_before, not_after, der, status, issuer_kind, key_protection, superseded_at,
         superseded_by, created_at)
       SELECT s, r, d, p, sub, u, nb, na, der, 'active', k, 'none',
              CASE WHEN sb IS NULL THEN NULL ELSE $12::timestamptz END, sb, $12::timestamptz
       FROM unnest($1::varchar[], $2::uuid[], $3::uuid[], $4::varchar[], $5::varchar[],
                   $6::varchar[], $7::timestamptz[], $8::timestamptz[], $9::bytea[],
                   $10::varchar[], $11::varchar[])
         AS t(s, r, d, p, sub, u, nb, na, der, k, sb)`,
      [
        rows.map((r) => r.serial),
        rows.map((r) => r.requestId),
        rows.map((r) => r.deviceId),
        rows.map((r) => r.purpose),
        rows.map((r) => r.subject),
        rows.map((r) => r.userIdentity),
        rows.map((r) => r.notBefore),
        rows.map((r) => r.notAfter),
        rows.map((r) => r.der),
        rows.map((r) => r.issuerKind),
        rows.map((r) => r.supersededBy),
        at,
      ],
    );
  }

  /** One UPDATE ... FROM unnest for every decided request. */
  async decideRequests(
    rows: readonly RequestDecision[],
    decidedBy: string,
    at: Date,
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.em.query(
      `UPDATE certificate_requests r SET status = u.status, status_reason = u.reason,
         decided_at = $1, decided_by = $2, updated_at = $1
       FROM unnest($3::uuid[], $4::varchar[], $5::varchar[]) AS u(id, status, reason)
       WHERE r.id = u.id`,
      [at, decidedBy, rows.map((r) => r.id), rows.map((r) => r.status), rows.map((r) => r.reason)],
    );
  }
}

@Injectable()
export class IssuanceRepository {
  tx(em: EntityManager): IssuanceTx {
    return new IssuanceTx(em);
  }
}
