import { Injectable } from '@nestjs/common';
import type { NewRefreshToken, RefreshTokenStore, StoredRefreshToken } from '@platform/auth';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { RefreshTokenEntity } from './refresh-token.entity';

/**
 * The `refresh_tokens` table behind `RefreshTokenRotation`; sessions are keyed by the access
 * tokens' subject, the user's e-mail (the users' primary key here). A rotated token is marked
 * used, an ended session revoked; either way it is no longer active.
 */
@Injectable()
export class RefreshTokensRepository implements RefreshTokenStore {
  constructor(private readonly dataSource: DataSource) {}

  async insert(token: NewRefreshToken): Promise<void> {
    await this.dataSource.getRepository(RefreshTokenEntity).insert(row(token));
  }

  async findByHash(tokenHash: string): Promise<StoredRefreshToken | null> {
    const found = await this.dataSource.getRepository(RefreshTokenEntity).findOneBy({ tokenHash });
    if (!found) return null;
    return {
      id: found.id,
      familyId: found.familyId,
      subject: found.email,
      expiresAt: found.expiresAt,
      usedAt: found.usedAt,
      revokedAt: found.revokedAt,
    };
  }

  /** Marks `id` used and stores its successor in the same family, atomically. */
  replace(id: string, successor: NewRefreshToken): Promise<boolean> {
    return this.dataSource.transaction(async (m) => {
      const result = await m.update(
        RefreshTokenEntity,
        { id, usedAt: IsNull(), revokedAt: IsNull() },
        { usedAt: new Date() },
      );
      if ((result.affected ?? 0) !== 1) return false;
      await m.insert(RefreshTokenEntity, row(successor));
      return true;
    });
  }

  /**
   * Stores `successor` beside the family's active token when token `id` was used (rotated) at
   * or after `usedSince`, was not revoked, and the family still has an active token (a
   * family ended by sign-out or reuse has none). One statement.
   */
  async branch(id: string, usedSince: Date, successor: NewRefreshToken): Promise<boolean> {
    const next = row(successor);
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO refresh_tokens (id, family_id, email, token_hash, expires_at)
       SELECT $1, $2, $3, $4, $5
        WHERE EXISTS (SELECT 1 FROM refresh_tokens r
                       WHERE r.id = $6 AND r.family_id = $2 AND r.used_at >= $7
                         AND r.revoked_at IS NULL)
          AND EXISTS (SELECT 1 FROM refresh_tokens a
                       WHERE a.family_id = $2 AND a.used_at IS NULL AND a.revoked_at IS NULL)
       RETURNING id`,
      [next.id, next.familyId, next.email, next.tokenHash, next.expiresAt, id, usedSince],
    );
    return rows.length === 1;
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.dataSource
      .getRepository(RefreshTokenEntity)
      .update({ familyId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Ends every session of a user (password change or reset, disable). */
  async revokeAllOf(email: string): Promise<void> {
    await this.dataSource
      .getRepository(RefreshTokenEntity)
      .update({ email, revokedAt: IsNull() }, { revokedAt: new Date() });
  }
}

function row(token: NewRefreshToken): Partial<RefreshTokenEntity> {
  return {
    id: randomUUID(),
    familyId: token.familyId,
    email: token.subject,
    tokenHash: token.tokenHash,
    expiresAt: token.expiresAt,
  };
}
