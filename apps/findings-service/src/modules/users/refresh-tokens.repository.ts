import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { RefreshTokenEntity } from './refresh-token.entity';

@Injectable()
export class RefreshTokensRepository {
  constructor(
    @InjectRepository(RefreshTokenEntity) private readonly repo: Repository<RefreshTokenEntity>,
  ) {}

  async insert(
    token: Pick<RefreshTokenEntity, 'userId' | 'familyId' | 'tokenHash' | 'expiresAt'>,
  ): Promise<void> {
    await this.repo.insert(token);
  }

  findByHash(tokenHash: string): Promise<RefreshTokenEntity | null> {
    return this.repo.findOneBy({ tokenHash });
  }

  /** Revokes one token if still active; false when someone else revoked it first. */
  async revokeIfActive(id: string, at: Date): Promise<boolean> {
    const result = await this.repo.update({ id, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) === 1;
  }

  async revokeFamily(familyId: string, at: Date): Promise<void> {
    await this.repo.update({ familyId, revokedAt: IsNull() }, { revokedAt: at });
  }

  async revokeAllForUser(userId: string, at: Date): Promise<void> {
    await this.repo.update({ userId, revokedAt: IsNull() }, { revokedAt: at });
  }
}
