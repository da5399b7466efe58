import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import type { PermissionName } from '../../app/access/permissions';
import { ProjectAccessService } from '../projects/project-access.service';
import { PROJECT_ROLES } from '../projects/project-roles';
import { ProjectsError } from '../projects/projects.errors';
import { ProjectsService } from '../projects/projects.service';
import { VisibilityService } from '../projects/visibility.service';
import { ProductEntity } from './product.entity';
import { ProductFields, ProductsRepository } from './products.repository';
import { ProductsError } from './products.errors';
import { repositoryKey } from './repository-url';

export interface ProductInput {
  name?: string;
  description?: string | null;
  repositoryUrl?: string | null;
  scanEnabled?: boolean;
}

@Injectable()
export class ProductsService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly projects: ProjectsService,
    private readonly projectAccess: ProjectAccessService,
    private readonly visibility: VisibilityService,
  ) {}

  async create(
    access: AccessContext,
    projectId: string,
    input: ProductInput & { name: string },
  ): Promise<ProductEntity> {
    this.projectAccess.require(
      access,
      'create_product',
      { projectId },
      () => new ProjectsError('project_not_found'),
    );
    await this.projects.existing(projectId);
    const fields: ProductFields = {
      name: input.name.trim(),
      description: input.description ?? null,
      scanEnabled: input.scanEnabled ?? false,
      ...this.repository(input.repositoryUrl ?? null),
    };
    const product = await this.products.insert(projectId, fields);
    if (!product) throw new ProductsError('product_exists');
    return product;
  }

  async listByProject(access: AccessContext, projectId: string): Promise<ProductEntity[]> {
    await this.projectAccess.requireRole(access, projectId, PROJECT_ROLES);
    return this.products.listByProject(projectId);
  }

  async get(access: AccessContext, id: string): Promise<ProductEntity> {
    const product = await this.existing(id);
    if (!this.visibility.canSee(access, { projectId: product.projectId, productId: id })) {
      throw new ProductsError('product_not_found');
    }
    return product;
  }

  async update(access: AccessContext, id: string, input: ProductInput): Promise<ProductEntity> {
    await this.authorized(access, id, 'update_product');
    const fields: Partial<ProductFields> = {};
    if (input.name !== undefined) fields.name = input.name.trim();
    if (input.description !== undefined) fields.description = input.description;
    if (input.scanEnabled !== undefined) fields.scanEnabled = input.scanEnabled;
    if (input.repositoryUrl !== undefined)
      Object.assign(fields, this.repository(input.repositoryUrl));
    if (!(await this.products.update(id, fields))) throw new ProductsError('product_exists');
    return this.existing(id);
  }

  async delete(access: AccessContext, id: string): Promise<void> {
    await this.authorized(access, id, 'delete_product');
    await this.products.delete(id);
  }

  /** Products of one repository (https/ssh/.git forms alike) the caller may list. */
  async lookup(access: AccessContext, repositoryUrl: string): Promise<ProductEntity[]> {
    const key = repositoryKey(repositoryUrl);
    if (key === undefined) throw new ProductsError('repository_url_invalid');
    const found = await this.products.listByRepositoryKey(key);
    return found.filter((p) =>
      access.can('list_products', { projectId: p.projectId, productId: p.id }),
    );
  }

  scanEnabled(access: AccessContext): Promise<ProductEntity[]> {
    return this.products.listScanEnabled(this.visibility.scope(access, 'list_products'));
  }

  /**
   * The product when the caller holds `permission` on it: `product_not_found` when the caller
   * holds nothing there (or it does not exist), 403 when it holds other permissions only.
   */
  async authorized(
    access: AccessContext,
    id: string,
    permission: PermissionName,
  ): Promise<ProductEntity> {
    const product = await this.products.findById(id);
    if (!product) throw new ProductsError('product_not_found');
    this.projectAccess.require(
      access,
      permission,
      { projectId: product.projectId, productId: product.id },
      () => new ProductsError('product_not_found'),
    );
    return product;
  }

  private async existing(id: string): Promise<ProductEntity> {
    const product = await this.products.findById(id);
    if (!product) throw new ProductsError('product_not_found');
    return product;
  }

  private repository(url: string | null): Pick<ProductFields, 'repositoryUrl' | 'repositoryKey'> {
    if (url === null || url.trim() === '') return { repositoryUrl: null, repositoryKey: null };
    const key = repositoryKey(url);
    if (key === undefined) throw new ProductsError('repository_url_invalid');
    return { repositoryUrl: url.trim(), repositoryKey: key };
  }
}
