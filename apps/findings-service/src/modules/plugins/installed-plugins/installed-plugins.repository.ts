import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, type EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { PluginCapability } from '@platform/plugin-sdk';
import { PluginSourceEntity } from '../marketplaces/plugin-source.entity';
import { InstalledPluginEntity } from './installed-plugin.entity';
import { PluginArtifactEntity } from './plugin-artifact.entity';

export type NewInstalledPlugin = Omit<
  InstalledPluginEntity,
  'id' | 'createdAt' | 'updatedAt' | 'marketplace'
>;

/** Installed plugins, their artifacts, and the sources they come from. */
@Injectable()
export class InstalledPluginsRepository {
  constructor(
    @InjectRepository(InstalledPluginEntity)
    private readonly plugins: Repository<InstalledPluginEntity>,
    @InjectRepository(PluginArtifactEntity)
    private readonly artifacts: Repository<PluginArtifactEntity>,
    @InjectRepository(PluginSourceEntity)
    private readonly sources: Repository<PluginSourceEntity>,
    private readonly dataSource: DataSource,
  ) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  findById(id: string, manager?: EntityManager): Promise<InstalledPluginEntity | null> {
    return (manager?.getRepository(InstalledPluginEntity) ?? this.plugins).findOneBy({ id });
  }

  /** The row locked for update inside `manager`'s transaction. */
  lockById(manager: EntityManager, id: string): Promise<InstalledPluginEntity | null> {
    return manager
      .getRepository(InstalledPluginEntity)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where('p.id = :id', { id })
      .getOne();
  }

  findByCatalogPluginId(catalogPluginId: string): Promise<InstalledPluginEntity | null> {
    return this.plugins.findOneBy({ catalogPluginId });
  }

  list(): Promise<InstalledPluginEntity[]> {
    return this.plugins.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Enabled installations declaring `capability`, oldest first. */
  listEnabledByCapability(capability: PluginCapability): Promise<InstalledPluginEntity[]> {
    return this.plugins
      .createQueryBuilder('p')
      .where('p.enabled = true')
      .andWhere(':capability = ANY(p.capabilities)', { capability })
      .orderBy('p.created_at', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .getMany();
  }

  /** Inserts; null when this catalog plugin id is already installed. */
  async insert(
    manager: EntityManager,
    row: NewInstalledPlugin,
  ): Promise<InstalledPluginEntity | null> {
    const result = await manager
      .getRepository(InstalledPluginEntity)
      .createQueryBuilder()
      .insert()
      .values(row as QueryDeepPartialEntity<InstalledPluginEntity>)
      .orIgnore()
      .returning(['id'])
      .execute();
    const inserted = (result.raw as { id: string }[])[0];
    return inserted ? this.findById(inserted.id, manager) : null;
  }

  async update(
    manager: EntityManager,
    id: string,
    changes: Partial<NewInstalledPlugin>,
  ): Promise<void> {
    await manager
      .getRepository(InstalledPluginEntity)
      .update({ id }, changes as QueryDeepPartialEntity<InstalledPluginEntity>);
  }

  /** Removes the installation row (its settings and sealed secrets go with it). */
  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(InstalledPluginEntity).delete({ id });
  }

  /** Installations that come from catalog source `sourceId`. */
  countFromSource(manager: EntityManager, sourceId: string): Promise<number> {
    return manager.getRepository(InstalledPluginEntity).countBy({ marketplaceId: sourceId });
  }

  /** Removes the artifact bytes of `digest` unless an installation still uses them. */
  async deleteArtifactIfUnused(manager: EntityManager, digest: string): Promise<void> {
    await manager.query(
      `DELETE FROM plugin_artifacts a
        WHERE a.digest = $1
          AND NOT EXISTS (SELECT 1 FROM installed_plugins p
                           WHERE p.artifact_sha256 = a.digest
                              OR strpos(COALESCE(p.pending_version::text, ''), a.digest) > 0)`,
      [digest],
    );
  }

  /** Stores artifact bytes under their digest (kept as they are when present). */
  async saveArtifact(manager: EntityManager, digest: string, content: Buffer): Promise<void> {
    await manager
      .getRepository(PluginArtifactEntity)
      .createQueryBuilder()
      .insert()
      .values({ digest, content, size: content.length })
      .orIgnore()
      .execute();
  }

  /**
   * The sealed secret settings a project saved for a plugin (its channel configuration,
   * docs/plugins/channels.md), or null.
   */
  async projectSecretSettings(projectId: string, pluginId: string): Promise<string | null> {
    const rows = (await this.dataSource.query(
      `SELECT secret_settings FROM project_channel_configs
        WHERE project_id = $1 AND installed_plugin_id = $2`,
      [projectId, pluginId],
    )) as { secret_settings: string | null }[];
    return rows[0]?.secret_settings ?? null;
  }

  async artifact(digest: string, manager?: EntityManager): Promise<Buffer | null> {
    const repo = manager?.getRepository(PluginArtifactEntity) ?? this.artifacts;
    const row = await repo.findOne({
      where: { digest },
      select: { digest: true, content: true },
    });
    return row?.content ?? null;
  }

  source(id: string, manager?: EntityManager): Promise<PluginSourceEntity | null> {
    return (manager?.getRepository(PluginSourceEntity) ?? this.sources).findOneBy({ id });
  }
}
