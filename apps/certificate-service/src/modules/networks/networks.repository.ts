import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { NetworkEntity, ONE_ACTIVE_WIRED_INDEX } from './network.entity';

export type NewNetwork = Omit<
  NetworkEntity,
  'id' | 'createdAt' | 'updatedAt' | 'disabledAt' | 'purpose'
>;
export type NetworkChange = Partial<
  Pick<
    NetworkEntity,
    'agentProfileDisabled' | 'macosAgentProfileDisabled' | 'radiusServerNames' | 'disabledAt'
  >
> & { updatedBy: string };

/** The insert or update broke the one-active-wired index. */
export class ActiveWiredConflict extends Error {}

function isActiveWiredConflict(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; driverError?: { constraint?: string } };
  return (
    e.code === '23505' && (e.constraint ?? e.driverError?.constraint) === ONE_ACTIVE_WIRED_INDEX
  );
}

/** The `networks` table. The one-active-wired conflict comes back as `ActiveWiredConflict`. */
@Injectable()
export class NetworksRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get networks() {
    return this.dataSource.getRepository(NetworkEntity);
  }

  list(): Promise<NetworkEntity[]> {
    return this.networks.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Networks not disabled, oldest first (agents filter the opt-outs by platform). */
  listActive(): Promise<NetworkEntity[]> {
    return this.networks.find({
      where: { disabledAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  findById(id: string): Promise<NetworkEntity | null> {
    return this.networks.findOneBy({ id });
  }

  async create(network: NewNetwork): Promise<NetworkEntity> {
    try {
      const inserted = await this.dataSource
        .createQueryBuilder()
        .insert()
        .into(NetworkEntity)
        .values(network)
        .returning('id')
        .execute();
      const id = (inserted.raw as { id: string }[])[0].id;
      return (await this.findById(id)) as NetworkEntity;
    } catch (error) {
      if (isActiveWiredConflict(error)) throw new ActiveWiredConflict();
      throw error;
    }
  }

  /** Applies the change; null when the row is gone. */
  async update(id: string, change: NetworkChange): Promise<NetworkEntity | null> {
    try {
      const result = await this.networks.update({ id }, change);
      return result.affected ? this.findById(id) : null;
    } catch (error) {
      if (isActiveWiredConflict(error)) throw new ActiveWiredConflict();
      throw error;
    }
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.networks.delete({ id });
    return (result.affected ?? 0) > 0;
  }
}
