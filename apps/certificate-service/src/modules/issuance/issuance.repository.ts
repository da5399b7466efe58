import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  insertCertificates,
  supersedeCertificates,
  type NewCertificate,
  type Supersession,
} from '../certificates/certificate-writes.repository';
import { decideRequests, type RequestDecision } from '../requests/request-writes.repository';

export type { NewCertificate, RequestDecision, Supersession };

/** A device's current certificate of a purpose (renewals: EST `simplereenroll`). */
export interface CurrentCertificate {
  serial: string;
  issuerKind: string;
}

/** Key of `currentCertificates`: device, purpose and user (user purposes). */
export function currentCertificateKey(row: {
  deviceId: string;
  purpose: string;
  userIdentity: string | null;
}): string {
  return `${row.deviceId}|${row.purpose}|${row.userIdentity ?? ''}`;
}

/**
 * Set-based statements of one issuance batch (never row by row): the certificates' and the
 * requests' own statements (certificates/certificate-writes.repository.ts,
 * requests/request-writes.repository.ts) in the batch's transaction.
 */
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

  /**
   * The newest active, unexpired and not superseded certificate of each device+purpose(+user)
   * of the batch (read only; the certificates module owns the table).
   */
  async currentCertificates(
    rows: readonly { deviceId: string; purpose: string; userIdentity: string | null }[],
  ): Promise<Map<string, CurrentCertificate>> {
    const current = new Map<string, CurrentCertificate>();
    if (rows.length === 0) return current;
    const found = (await this.em.query(
      `SELECT DISTINCT ON (device_id, purpose, coalesce(user_identity, ''))
         device_id, purpose, user_identity, serial, issuer_kind
       FROM certificates
       WHERE device_id = ANY($1::uuid[]) AND purpose = ANY($2::varchar[]) AND status = 'active'
         AND superseded_by IS NULL AND not_after > now()
       ORDER BY device_id, purpose, coalesce(user_identity, ''), not_before DESC`,
      [[...new Set(rows.map((r) => r.deviceId))], [...new Set(rows.map((r) => r.purpose))]],
    )) as {
      device_id: string;
      purpose: string;
      user_identity: string | null;
      serial: string;
      issuer_kind: string;
    }[];
    for (const f of found) {
      const key = currentCertificateKey({
        deviceId: f.device_id,
        purpose: f.purpose,
        userIdentity: f.user_identity,
      });
      current.set(key, { serial: f.serial, issuerKind: f.issuer_kind });
    }
    return current;
  }

  /** Marks the previous active certificate of each device+purpose(+user) superseded. */
  supersede(rows: readonly Supersession[], at: Date): Promise<void> {
    return supersedeCertificates(this.em, rows, at);
  }

  /** One multi-row INSERT. */
  insertCertificates(rows: readonly NewCertificate[], at: Date): Promise<void> {
    return insertCertificates(this.em, rows, at);
  }

  /** One UPDATE ... FROM unnest for every decided request. */
  decideRequests(rows: readonly RequestDecision[], decidedBy: string, at: Date): Promise<void> {
    return decideRequests(this.em, rows, decidedBy, at);
  }
}

@Injectable()
export class IssuanceRepository {
  tx(em: EntityManager): IssuanceTx {
    return new IssuanceTx(em);
  }
}
