import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { StoredTpmChallenge } from '../tpm-attestation/tpm-evidence';
import { EnrollNonceEntity, type EnrollNonceKind } from './enroll-nonce.entity';

/** Nonces expired longer ago than this are purged when new ones are issued. */
const PURGE_AFTER = '1 hour';

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

  /** Marks the nonce used if it exists, is of `kind`, unused and unexpired (atomically). */
  async consume(nonceHash: string, kind: EnrollNonceKind): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
      `UPDATE enroll_nonces SET used_at = now()
        WHERE nonce_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING nonce_hash`,
      [nonceHash, kind],
    )) as [unknown[], number];
    return rows.length === 1;
  }

  async purgeExpired(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM enroll_nonces WHERE expires_at < now() - interval '${PURGE_AFTER}'`,
    );
  }
}
