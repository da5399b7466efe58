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
