import { Injectable } from '@nestjs/common';
import { preparedQuery } from '@platform/database';
import { DataSource } from 'typeorm';
import type { StoredTpmChallenge } from '../tpm-attestation/tpm-evidence';
import { EnrollNonceEntity, type EnrollNonceKind } from './enroll-nonce.entity';

/** Nonces expired longer ago than this are purged when new ones are issued. */
const PURGE_AFTER = '1 hour';

/**
 * How a nonce is spent. A stored nonce (issued with a TPM challenge, or before signed nonces)
 * has its row marked used; a signed one (`signed-nonce.ts`) has its row written used — the
 * primary key refuses a second use on any replica, and its expiry is checked against the
 * database's clock as a stored one's is.
 */
export interface NonceClaim {
  hash: string;
  kind: EnrollNonceKind;
  /** The expiry a signed nonce carries; null for a stored nonce (its row has it). */
  signedExpiresAt: Date | null;
}

/**
 * The statement spending `claim`, RETURNING one row when it was live and unused (as a member
 * of a `WITH` or alone); parameters from `$first`.
 */
export function consumeNonceSql(
  claim: NonceClaim,
  first: number,
): { sql: string; params: unknown[] } {
  const [hash, kind, expires] = [`$${first}`, `$${first + 1}`, `$${first + 2}`];
  if (claim.signedExpiresAt) {
    return {
      sql: `INSERT INTO enroll_nonces (nonce_hash, kind, expires_at, used_at)
            SELECT ${hash}::varchar, ${kind}::varchar, ${expires}::timestamptz, now()
             WHERE ${expires}::timestamptz > now()
            ON CONFLICT (nonce_hash) DO NOTHING RETURNING 1`,
      params: [claim.hash, claim.kind, claim.signedExpiresAt],
    };
  }
  return {
    sql: `UPDATE enroll_nonces SET used_at = now()
           WHERE nonce_hash = ${hash} AND kind = ${kind} AND used_at IS NULL AND expires_at > now()
           RETURNING 1`,
    params: [claim.hash, claim.kind],
  };
}

@Injectable()
export class EnrollNoncesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    nonceHash: string,
    kind: EnrollNonceKind,
    expiresAt: Date,
    challenge?: StoredTpmChallenge,
  ): Promise<void> {
    // Plain SQL: the entity insert's query building was a visible share of `POST /enroll/nonce`.
    await this.dataSource.query(
      `INSERT INTO enroll_nonces (nonce_hash, kind, expires_at, tpm_credential_hash, tpm_ak_name,
              tpm_ek_fingerprint)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        nonceHash,
        kind,
        expiresAt,
        challenge?.credentialHash ?? null,
        challenge?.akName ?? null,
        challenge?.ekFingerprint ?? null,
      ],
    );
  }

  /** The live (unused, unexpired) nonce's challenge, without consuming it; undefined if none. */
  async peek(
    nonceHash: string,
    kind: EnrollNonceKind,
  ): Promise<{ challenge: StoredTpmChallenge | null } | undefined> {
    const row = await this.dataSource
      .getRepository(EnrollNonceEntity)
      .createQueryBuilder('n')
      .where('n.nonce_hash = :nonceHash AND n.kind = :kind', { nonceHash, kind })
      .andWhere('n.used_at IS NULL AND n.expires_at > now()')
      .getOne();
    if (!row) return undefined;
    const challenge =
      row.tpmCredentialHash && row.tpmAkName && row.tpmEkFingerprint
        ? {
            credentialHash: row.tpmCredentialHash,
            akName: row.tpmAkName,
            ekFingerprint: row.tpmEkFingerprint,
          }
        : null;
    return { challenge };
  }

  /** Spends the nonce if it is live and unused (atomically); false otherwise. */
  async consume(claim: NonceClaim): Promise<boolean> {
    const { sql, params } = consumeNonceSql(claim, 1);
    const variant = claim.signedExpiresAt ? 'signed' : 'stored';
    const rows = await preparedQuery(
      this.dataSource,
      `certsvc-enroll-nonce-spend-${variant}`,
      sql,
      params,
    );
    return rows.length === 1;
  }

  /** Whether a signed nonce was spent already (its row exists). */
  async isSpent(nonceHash: string): Promise<boolean> {
    const rows = (await this.dataSource.query('SELECT 1 FROM enroll_nonces WHERE nonce_hash = $1', [
      nonceHash,
    ])) as unknown[];
    return rows.length > 0;
  }

  async purgeExpired(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM enroll_nonces WHERE expires_at < now() - interval '${PURGE_AFTER}'`,
    );
  }
}
