import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { RefreshTokenEntity } from './refresh-token.entity';

export type RotationOutcome =
  | { kind: 'rotated'; email: string }
  | { kind: 'unknown' | 'expired' }
  /** A used or revoked token came back: the whole family has been revoked. */
  | { kind: 'reused'; email: string };

export interface NewRefreshToken {
  tokenHash: string;
  email: string;
  expiresAt: Date;
  /** Omit to start a new family (a new sign-in). */
  familyId?: string;
}

@Injectable()
export class RefreshTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(token: NewRefreshToken): Promise<void> {
    await this.dataSource.getRepository(RefreshTokenEntity).insert({
      id: randomUUID(),
      familyId: token.familyId ?? randomUUID(),
      email: token.email,
      tokenHash: token.tokenHash,
      expiresAt: token.expiresAt,
    });
  }

  /** Marks `oldHash` used and stores its successor in the same family, atomically. */
  async rotate(
    oldHash: string,
    successor: Omit<NewRefreshToken, 'email' | 'familyId'>,
  ): Promise<RotationOutcome> {
    return this.dataSource.transaction(async (m) => {
      const repo = m.getRepository(RefreshTokenEntity);
      const current = await repo.findOne({
        where: { tokenHash: oldHash },
        lock: { mode: 'pessimistic_write' },
      });
      if (!current) return { kind: 'unknown' };
      if (current.usedAt !== null || current.revokedAt !== null) {
        await repo.update(
          { familyId: current.familyId, revokedAt: IsNull() },
          { revokedAt: new Date() },
        );
        return { kind: 'reused', email: current.email };
      }
      if (current.expiresAt.getTime() <= Date.now()) return { kind: 'expired' };
      await repo.update({ id: current.id }, { usedAt: new Date() });
      await repo.insert({
        id: randomUUID(),
        familyId: current.familyId,
        email: current.email,
        tokenHash: successor.tokenHash,
        expiresAt: successor.expiresAt,
      });
      return { kind: 'rotated', email: current.email };
    });
  }

  /** Revokes the family of one token (logout of one session). */
  async revokeFamilyOf(tokenHash: string): Promise<void> {
    const token = await this.dataSource.getRepository(RefreshTokenEntity).findOneBy({ tokenHash });
    if (!token) return;
    await this.dataSource
      .getRepository(RefreshTokenEntity)
      .update({ familyId: token.familyId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Ends every session of a user (password change or reset, disable). */
  async revokeAllOf(email: string): Promise<void> {
    await this.dataSource
      .getRepository(RefreshTokenEntity)
      .update({ email, revokedAt: IsNull() }, { revokedAt: new Date() });
  }
}
