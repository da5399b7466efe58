import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EnrollNonceEntity, type EnrollNonceKind } from './enroll-nonce.entity';

/** Nonces expired longer ago than this are purged when new ones are issued. */
const PURGE_AFTER = '1 hour';

@Injectable()
export class EnrollNoncesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(nonceHash: string, kind: EnrollNonceKind, expiresAt: Date): Promise<void> {
    await this.dataSource.getRepository(EnrollNonceEntity).insert({ nonceHash, kind, expiresAt });
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
