import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import { ServiceAccountEntity } from './service-account.entity';

export type NewServiceAccount = Omit<
  ServiceAccountEntity,
  'createdAt' | 'updatedAt' | 'lastUsedAt'
>;

@Injectable()
export class ServiceAccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(ServiceAccountEntity);
  }

  async insert(account: NewServiceAccount): Promise<ServiceAccountEntity> {
    await this.repo.insert(account);
    return this.repo.findOneByOrFail({ id: account.id });
  }

  list(): Promise<ServiceAccountEntity[]> {
    return this.repo.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findById(id: string): Promise<ServiceAccountEntity | null> {
    return this.repo.findOneBy({ id });
  }

  findByTokenHash(tokenHash: string): Promise<ServiceAccountEntity | null> {
    return this.repo.findOneBy({ tokenHash });
  }

  async update(
    id: string,
    changes: { enabled?: boolean; allowedPurposes?: Purpose[] },
  ): Promise<ServiceAccountEntity | null> {
    const result = await this.repo.update({ id }, changes);
    return (result.affected ?? 0) > 0 ? this.findById(id) : null;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.repo.delete({ id });
    return (result.affected ?? 0) > 0;
  }

  async touchLastUsed(id: string, at: Date): Promise<void> {
    await this.repo.update({ id }, { lastUsedAt: at });
  }
}
