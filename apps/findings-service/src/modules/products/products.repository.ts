import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, Repository } from 'typeorm';
import type { VisibleScope } from '../projects/visibility.service';
import { ProductFindings } from './product-findings.port';
import { ProductEntity } from './product.entity';

export type ProductFields = Pick<
  ProductEntity,
  'name' | 'description' | 'repositoryUrl' | 'repositoryKey' | 'scanEnabled'
>;

@Injectable()
export class ProductsRepository {
  constructor(
    @InjectRepository(ProductEntity) private readonly products: Repository<ProductEntity>,
    private readonly findings: ProductFindings,
  ) {}

  /** Inserts; null when the project already has a product of that name. */
  async insert(projectId: string, fields: ProductFields): Promise<ProductEntity | null> {
    const result = await this.products
      .createQueryBuilder()
      .insert()
      .values({ ...fields, projectId })
      .orIgnore()
      .returning(['id'])
      .execute();
    const row = (result.raw as { id: string }[])[0];
    return row ? this.products.findOneBy({ id: row.id }) : null;
  }

  findById(id: string): Promise<ProductEntity | null> {
    return this.products.findOneBy({ id });
  }

  listByProject(projectId: string): Promise<ProductEntity[]> {
    return this.products.find({ where: { projectId }, order: { name: 'ASC', id: 'ASC' } });
  }

  listByRepositoryKey(repositoryKey: string): Promise<ProductEntity[]> {
    return this.products.find({ where: { repositoryKey }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  listScanEnabled(scope: VisibleScope): Promise<ProductEntity[]> {
    const query = this.products
      .createQueryBuilder('p')
      .where('p.scan_enabled = true')
      .orderBy('p.name', 'ASC')
      .addOrderBy('p.id', 'ASC');
    if (!scope.all) {
      query.andWhere(
        new Brackets((q) =>
          q
            .where('p.project_id = ANY(:projectIds::uuid[])', { projectIds: scope.projectIds })
            .orWhere('p.id = ANY(:productIds::uuid[])', { productIds: scope.productIds }),
        ),
      );
    }
    return query.getMany();
  }

  /** False when the new name collides with another product of the project. */
  async update(id: string, fields: Partial<ProductFields>): Promise<boolean> {
    if (Object.keys(fields).length === 0) return true;
    try {
      await this.products.update({ id }, fields);
      return true;
    } catch (error) {
      if ((error as { driverError?: { code?: unknown } }).driverError?.code === '23505') {
        return false;
      }
      throw error;
    }
  }

  /**
   * Deletes the product with its findings (deleted in this transaction by the findings module,
   * ProductFindings: findings.product_id has no foreign key, see lockProductForWrite) and its
   * reports (foreign key cascade). The product row is locked first, so findings being written
   * now are committed, and then deleted, before it goes.
   */
  async delete(id: string): Promise<void> {
    await this.products.manager.transaction(async (manager) => {
      const rows = (await manager.query(`SELECT 1 FROM products WHERE id = $1 FOR UPDATE`, [
        id,
      ])) as unknown[];
      if (rows.length === 0) return;
      await this.findings.deleteFindingsOfProduct(manager, id);
      await manager.query(`DELETE FROM products WHERE id = $1`, [id]);
    });
  }
}
