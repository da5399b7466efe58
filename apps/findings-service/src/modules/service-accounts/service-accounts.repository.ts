import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { ServiceAccountPermissionEntity } from './service-account-permission.entity';
import { ServiceAccountEntity } from './service-account.entity';

export type NewServiceAccount = Pick<
  ServiceAccountEntity,
  'name' | 'description' | 'keyPrefix' | 'keyHash' | 'createdByUserId'
>;
export type NewGrant = Omit<ServiceAccountPermissionEntity, 'id' | 'createdAt' | 'serviceAccount'>;

@Injectable()
export class ServiceAccountsRepository {
  constructor(
    @InjectRepository(ServiceAccountEntity)
    private readonly accounts: Repository<ServiceAccountEntity>,
    @InjectRepository(ServiceAccountPermissionEntity)
    private readonly grants: Repository<ServiceAccountPermissionEntity>,
  ) {}

  /** Inserts; null when the key prefix is already taken (caller retries with a new key). */
  async insert(account: NewServiceAccount): Promise<ServiceAccountEntity | null> {
    const result = await this.accounts
      .createQueryBuilder()
      .insert()
      .values(account)
      .orIgnore()
      .returning(['id'])
      .execute();
    const row = (result.raw as { id: string }[])[0];
    return row ? this.accounts.findOneBy({ id: row.id }) : null;
  }

  findById(id: string): Promise<ServiceAccountEntity | null> {
    return this.accounts.findOneBy({ id });
  }

  findByPrefix(keyPrefix: string): Promise<ServiceAccountEntity | null> {
    return this.accounts.findOneBy({ keyPrefix });
  }

  list(): Promise<ServiceAccountEntity[]> {
    return this.accounts.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async revoke(id: string, at: Date): Promise<void> {
    await this.accounts.update({ id, revokedAt: IsNull() }, { revokedAt: at });
  }

  /** At most one write per account per minute: `last_used_at` is informational. */
  async touchLastUsed(id: string, at: Date): Promise<void> {
    await this.accounts
      .createQueryBuilder()
      .update()
      .set({ lastUsedAt: at })
      .where('id = :id', { id })
      .andWhere("(last_used_at IS NULL OR last_used_at < :at::timestamptz - interval '1 minute')", {
        at,
      })
      .execute();
  }

  async insertGrant(grant: NewGrant): Promise<ServiceAccountPermissionEntity> {
    return this.grants.save(this.grants.create(grant));
  }

  listGrants(serviceAccountId: string): Promise<ServiceAccountPermissionEntity[]> {
    return this.grants.find({
      where: { serviceAccountId },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Grants that have not expired. */
  activeGrants(serviceAccountId: string, now: Date): Promise<ServiceAccountPermissionEntity[]> {
    return this.grants.find({
      where: [
        { serviceAccountId, expiresAt: IsNull() },
        { serviceAccountId, expiresAt: MoreThan(now) },
      ],
    });
  }

  async deleteGrant(serviceAccountId: string, id: string): Promise<boolean> {
    const result = await this.grants.delete({ serviceAccountId, id });
    return (result.affected ?? 0) > 0;
  }
}
