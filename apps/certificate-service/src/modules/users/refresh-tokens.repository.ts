import { Injectable } from '@nestjs/common';
import type { NewRefreshToken, RefreshTokenStore, StoredRefreshToken } from '@platform/auth';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { RefreshTokenEntity } from './refresh-token.entity';

/**
 * The `refresh_tokens` table behind `RefreshTokenRotation`; sessions are keyed by email. A
 * rotated token is marked used, an ended session revoked; either way it is no longer active.
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
      active: found.usedAt === null && found.revokedAt === null,
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
