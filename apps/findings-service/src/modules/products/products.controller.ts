import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import type { AccessContext } from '../../app/access/access-context';
import { Access, CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import {
  CreateProductDto,
  ProductDto,
  ProductLookupQueryDto,
  UpdateProductDto,
} from './dto/product.dto';
import { ProductsService } from './products.service';

@ApiTags('products')
@Controller(API_PREFIX)
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post('projects/:id/products')
  @HttpCode(201)
  @Access({ permission: 'create_product' })
  @ApiDataResponse(ProductDto, { status: 201, description: 'Product created' })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429)
  async create(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Body() body: CreateProductDto,
  ): Promise<ProductDto> {
    const product = await this.products.create(access, projectId, {
      name: body.name,
      description: body.description,
      repositoryUrl: body.repository_url,
      scanEnabled: body.scan_enabled,
    });
    return ProductDto.from(product);
  }

  @Get('projects/:id/products')
  @UserOnly()
  @ApiDataResponse(ProductDto, { isArray: true })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async listByProject(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
  ): Promise<ProductDto[]> {
    return (await this.products.listByProject(access, projectId)).map((p) => ProductDto.from(p));
  }

  @Get('products/lookup')
  @Access({ permission: 'list_products' })
  @ApiDataResponse(ProductDto, { isArray: true, description: 'Products of that repository' })
  @ApiErrorResponses(400, 401, 403, 429)
  async lookup(
    @CurrentAccess() access: AccessContext,
    @Query() query: ProductLookupQueryDto,
  ): Promise<ProductDto[]> {
    const found = await this.products.lookup(access, query.repository_url);
    return found.map((p) => ProductDto.from(p));
  }

  @Get('products/scan-enabled')
  @Access({ permission: 'list_products' })
  @ApiDataResponse(ProductDto, { isArray: true })
  @ApiErrorResponses(401, 403, 429)
  async scanEnabled(@CurrentAccess() access: AccessContext): Promise<ProductDto[]> {
    return (await this.products.scanEnabled(access)).map((p) => ProductDto.from(p));
  }

  @Get('products/:id')
  @UserOnly()
  @ApiDataResponse(ProductDto)
  @ApiErrorResponses(400, 401, 404, 429)
  async get(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
  ): Promise<ProductDto> {
    return ProductDto.from(await this.products.get(access, id));
  }

  @Put('products/:id')
  @Access({ permission: 'update_product' })
  @ApiDataResponse(ProductDto)
  @ApiErrorResponses(400, 401, 403, 404, 409, 429)
  async update(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Body() body: UpdateProductDto,
  ): Promise<ProductDto> {
    const product = await this.products.update(access, id, {
      name: body.name,
      description: body.description,
      repositoryUrl: body.repository_url,
      scanEnabled: body.scan_enabled,
    });
    return ProductDto.from(product);
  }

  @Delete('products/:id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Product deleted with its reports and findings' })
  @Access({ permission: 'delete_product' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async delete(@CurrentAccess() access: AccessContext, @UuidParam('id') id: string): Promise<void> {
    await this.products.delete(access, id);
  }
}
