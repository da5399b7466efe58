import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { K8sClusterEntity } from './k8s-cluster.entity';

export type NewK8sCluster = Omit<K8sClusterEntity, 'id' | 'createdAt' | 'updatedAt'>;
export type K8sClusterChange = Partial<
  Pick<K8sClusterEntity, 'name' | 'serverUrl' | 'caBundle' | 'groupMappings' | 'enabled'>
>;

/** The `k8s_clusters` table. Unique-name conflicts come back as `undefined`/`false`. */
@Injectable()
export class K8sClustersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get clusters() {
    return this.dataSource.getRepository(K8sClusterEntity);
  }

  list(): Promise<K8sClusterEntity[]> {
    return this.clusters.find({ order: { name: 'ASC' } });
  }

  findById(id: string): Promise<K8sClusterEntity | null> {
    return this.clusters.findOneBy({ id });
  }

  findByName(name: string): Promise<K8sClusterEntity | null> {
    return this.clusters.findOneBy({ name });
  }

  /** Inserts the cluster; undefined when the name is taken. */
  async create(cluster: NewK8sCluster): Promise<K8sClusterEntity | undefined> {
    const inserted = await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(K8sClusterEntity)
      .values(cluster)
      .orIgnore()
      .returning('id')
      .execute();
    const row = inserted.raw as { id: string }[];
    return row.length === 0 ? undefined : ((await this.findById(row[0].id)) ?? undefined);
  }

  /** 'updated', 'missing' (no such id) or 'name_taken'. */
  async update(
    id: string,
    change: K8sClusterChange,
  ): Promise<'updated' | 'missing' | 'name_taken'> {
    if (change.name !== undefined) {
      const other = await this.findByName(change.name);
      if (other && other.id !== id) return 'name_taken';
    }
    try {
      const result = await this.clusters.update({ id }, change);
      return result.affected ? 'updated' : 'missing';
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return 'name_taken';
      throw error;
    }
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.clusters.delete({ id });
    return (result.affected ?? 0) > 0;
  }
}
