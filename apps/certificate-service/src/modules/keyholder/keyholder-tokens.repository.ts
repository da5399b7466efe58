import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { KeyholderTokenEntity } from './keyholder-token.entity';

export type NewKeyholderToken = Omit<KeyholderTokenEntity, 'createdAt' | 'revokedAt' | 'revokedBy'>;

@Injectable()
export class KeyholderTokensRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(KeyholderTokenEntity);
  }

  async insert(token: NewKeyholderToken): Promise<KeyholderTokenEntity> {
    await this.repo.insert(token);
    return this.repo.findOneByOrFail({ id: token.id });
  }

  list(): Promise<KeyholderTokenEntity[]> {
    return this.repo.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findById(id: string): Promise<KeyholderTokenEntity | null> {
    return this.repo.findOneBy({ id });
  }

  /** The token with this hash, unless revoked. */
  findActiveByHash(tokenHash: string): Promise<KeyholderTokenEntity | null> {
    return this.repo.findOneBy({ tokenHash, revokedAt: IsNull() });
  }

  /** Sets the principal list of a token that is not revoked; null when there is none. */
  async setPrincipals(
    id: string,
    principals: string[] | null,
  ): Promise<KeyholderTokenEntity | null> {
    const result = await this.repo.update({ id, revokedAt: IsNull() }, { principals });
    return (result.affected ?? 0) > 0 ? this.findById(id) : null;
  }

  /** Revokes a token that is not revoked yet; null when there is none. */
  async revoke(id: string, at: Date, by: string): Promise<KeyholderTokenEntity | null> {
    const result = await this.repo.update(
      { id, revokedAt: IsNull() },
      { revokedAt: at, revokedBy: by },
    );
    return (result.affected ?? 0) > 0 ? this.findById(id) : null;
  }
}
