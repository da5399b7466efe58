import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export interface EndpointChanges {
  url?: string;
  description?: string;
  eventTypes?: string[];
  enabled?: boolean;
  secretSealed?: string;
}

/** The only place that touches `webhook_endpoints`. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(em: EntityManager = this.dataSource.manager) {
    return em.getRepository(WebhookEndpointEntity);
  }

  list(): Promise<WebhookEndpointEntity[]> {
    return this.repo().find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async get(id: string): Promise<WebhookEndpointEntity | null> {
    return this.repo().findOneBy({ id });
  }

  /** Endpoints of a batch of deliveries (the worker), by id. */
  async byIds(ids: readonly string[]): Promise<Map<string, WebhookEndpointEntity>> {
    if (ids.length === 0) return new Map();
    const rows = await this.repo()
      .createQueryBuilder('e')
      .where('e.id = ANY(:ids::uuid[])', { ids })
      .getMany();
    return new Map(rows.map((r) => [r.id, r]));
  }

  async create(
    row: Omit<WebhookEndpointEntity, 'createdAt' | 'updatedAt'>,
  ): Promise<WebhookEndpointEntity> {
    return this.repo().save(this.repo().create(row));
  }

  /** Applies the changes; null when the endpoint does not exist. */
  async update(id: string, changes: EndpointChanges): Promise<WebhookEndpointEntity | null> {
    const row = await this.get(id);
    if (!row) return null;
    Object.assign(row, changes);
    return this.repo().save(row);
  }

  /** Deletes the endpoint with its deliveries (one transaction); false when unknown. */
  async delete(id: string): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const result = await this.repo(em).delete({ id });
      if (!result.affected) return false;
      await em.query(`DELETE FROM webhook_deliveries WHERE endpoint_id = $1`, [id]);
      return true;
    });
  }
}
