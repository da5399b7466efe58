import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, type EntityManager } from 'typeorm';
import { PluginSourceEntity } from './plugin-source.entity';

export type NewPluginSource = Pick<
  PluginSourceEntity,
  'name' | 'catalogUrl' | 'publicKey' | 'isActive' | 'allowsNative' | 'official'
>;
export type PluginSourceChanges = Partial<
  Pick<PluginSourceEntity, 'name' | 'catalogUrl' | 'publicKey' | 'isActive' | 'allowsNative'>
>;

@Injectable()
export class PluginSourcesRepository {
  constructor(
    @InjectRepository(PluginSourceEntity)
    private readonly sources: Repository<PluginSourceEntity>,
    private readonly dataSource: DataSource,
  ) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insert(source: NewPluginSource, manager?: EntityManager): Promise<PluginSourceEntity> {
    const repo = manager?.getRepository(PluginSourceEntity) ?? this.sources;
    const result = await repo
      .createQueryBuilder()
      .insert()
      .values(source)
      .returning(['id'])
      .execute();
    const id = (result.raw as { id: string }[])[0].id;
    return repo.findOneByOrFail({ id });
  }

  /** Inserts the official source unless one exists (any replica, any number of times). */
  async insertOfficialOnce(source: NewPluginSource): Promise<boolean> {
    const result = await this.sources
      .createQueryBuilder()
      .insert()
      .values({ ...source, official: true })
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length > 0;
  }

  findById(id: string): Promise<PluginSourceEntity | null> {
    return this.sources.findOneBy({ id });
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(PluginSourceEntity).delete({ id });
  }

  lockById(manager: EntityManager, id: string): Promise<PluginSourceEntity | null> {
    return manager
      .getRepository(PluginSourceEntity)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.id = :id', { id })
      .getOne();
  }

  list(): Promise<PluginSourceEntity[]> {
    return this.sources.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async update(manager: EntityManager, id: string, changes: PluginSourceChanges): Promise<void> {
    await manager.getRepository(PluginSourceEntity).update({ id }, changes);
  }

  /** Records the revocation list of a verified catalog. */
  async recordCatalog(id: string, revokedDigests: string[], at: Date): Promise<void> {
    await this.sources.update({ id }, { revokedDigests, catalogFetchedAt: at });
  }
}
