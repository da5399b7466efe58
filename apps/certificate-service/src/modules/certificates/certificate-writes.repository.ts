import type { EntityManager } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';

/**
 * Writes of the `certificates` table that issuance makes in the transaction of a batch, set-based
 * (never row by row). The certificates module owns the table; nothing else writes it.
 */

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
  /** CA chain (PEM, issuing CA first) of an external issuer's certificate; null: built-in CA. */
  chainPem?: string | null;
  /** Set when a later certificate of the same batch replaces it. */
  supersededBy: string | null;
}

export interface Supersession {
  deviceId: string;
  purpose: Purpose;
  userIdentity: string | null;
  serial: string;
}

/** Marks the previous active certificate of each device+purpose(+user) superseded. */
export async function supersedeCertificates(
  em: EntityManager,
  rows: readonly Supersession[],
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await em.query(
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
export async function insertCertificates(
  em: EntityManager,
  rows: readonly NewCertificate[],
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await em.query(
    `INSERT INTO certificates (serial, request_id, device_id, purpose, subject, user_identity,
         not_before, not_after, der, status, issuer_kind, key_protection, superseded_at,
         superseded_by, created_at, chain_pem)
       SELECT s, r, d, p, sub, u, nb, na, der, 'active', k, 'none',
              CASE WHEN sb IS NULL THEN NULL ELSE $12::timestamptz END, sb, $12::timestamptz, ch
       FROM unnest($1::varchar[], $2::uuid[], $3::uuid[], $4::varchar[], $5::varchar[],
                   $6::varchar[], $7::timestamptz[], $8::timestamptz[], $9::bytea[],
                   $10::varchar[], $11::varchar[], $13::text[])
         AS t(s, r, d, p, sub, u, nb, na, der, k, sb, ch)`,
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
      rows.map((r) => r.chainPem ?? null),
    ],
  );
}
