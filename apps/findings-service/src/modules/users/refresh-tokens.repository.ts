import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { NewRefreshToken, RefreshTokenStore, StoredRefreshToken } from '@platform/auth';
import { IsNull, Repository } from 'typeorm';
import { RefreshTokenEntity } from './refresh-token.entity';

/**
 * The `refresh_tokens` table behind `RefreshTokenRotation`; sessions are keyed by the access
 * tokens' subject, the user id. A rotated token is marked used, an ended session revoked.
 */
@Injectable()
export class RefreshTokensRepository implements RefreshTokenStore {
  constructor(
    @InjectRepository(RefreshTokenEntity) private readonly repo: Repository<RefreshTokenEntity>,
  ) {}

  async insert(token: NewRefreshToken): Promise<void> {
    await this.repo.insert({
      userId: token.subject,
      familyId: token.familyId,
      tokenHash: token.tokenHash,
      expiresAt: token.expiresAt,
    });
  }

  async findByHash(tokenHash: string): Promise<StoredRefreshToken | null> {
    const row = await this.repo.findOneBy({ tokenHash });
    if (!row) return null;
    return {
      id: row.id,
      familyId: row.familyId,
      subject: row.userId,
      expiresAt: row.expiresAt,
      usedAt: row.usedAt,
      revokedAt: row.revokedAt,
    };
  }

  /** Marks `id` used if still active and stores its successor, in one transaction. */
  replace(id: string, successor: NewRefreshToken): Promise<boolean> {
    return this.repo.manager.transaction(async (m) => {
      const result = await m.update(
        RefreshTokenEntity,
        { id, usedAt: IsNull(), revokedAt: IsNull() },
        { usedAt: new Date() },
      );
      if ((result.affected ?? 0) !== 1) return false;
      await m.insert(RefreshTokenEntity, {
        userId: successor.subject,
        familyId: successor.familyId,
        tokenHash: successor.tokenHash,
        expiresAt: successor.expiresAt,
      });
      return true;
    });
  }

  /**
   * Stores `successor` beside the family's active token when token `id` was used at or after
   * `usedSince`, is not revoked, and the family still has an active token (a family ended by
   * sign-out or reuse has none). One statement.
   */
  async branch(id: string, usedSince: Date, successor: NewRefreshToken): Promise<boolean> {
    const rows: unknown[] = await this.repo.manager.query(
      `INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at)
       SELECT $1, $2, $3, $4
        WHERE EXISTS (SELECT 1 FROM refresh_tokens r
                       WHERE r.id = $5 AND r.family_id = $2 AND r.used_at >= $6
                         AND r.revoked_at IS NULL)
          AND EXISTS (SELECT 1 FROM refresh_tokens a
                       WHERE a.family_id = $2 AND a.used_at IS NULL AND a.revoked_at IS NULL)
       RETURNING id`,
      [
        successor.subject,
        successor.familyId,
        successor.tokenHash,
        successor.expiresAt,
        id,
        usedSince,
      ],
    );
    return rows.length === 1;
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.repo.update({ familyId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  async revokeAllOf(userId: string): Promise<void> {
    await this.repo.update({ userId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }
}
