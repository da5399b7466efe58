import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { UuidParam } from '../../app/http/uuid-param';
import { AccessContext } from '../../app/access/access-context';
import { AdminOnly, CurrentAccess } from '../../app/access/access.decorators';
import { CreateServiceAccountDto } from './dto/create-service-account.dto';
import { GrantPermissionDto } from './dto/grant-permission.dto';
import { PermissionGrantDto } from './dto/permission-grant.dto';
import { CreatedServiceAccountDto, ServiceAccountDto } from './dto/service-account.dto';
import { ServiceAccountsService } from './service-accounts.service';

@ApiTags('admin')
@Controller(`${API_PREFIX}/admin/service-accounts`)
export class ServiceAccountsController {
  constructor(private readonly accounts: ServiceAccountsService) {}

  @Post()
  @HttpCode(201)
  @AdminOnly()
  @ApiDataResponse(CreatedServiceAccountDto, {
    status: 201,
    description: 'Created; the key is shown once',
  })
  @ApiErrorResponses(400, 401, 403, 429)
  async create(
    @Body() body: CreateServiceAccountDto,
    @CurrentAccess() access: AccessContext,
  ): Promise<CreatedServiceAccountDto> {
    const created = await this.accounts.create(body, access.principal.id);
    return { ...ServiceAccountDto.from(created.account), api_key: created.key };
  }

  @Get()
  @AdminOnly()
  @ApiDataResponse(ServiceAccountDto, { isArray: true })
  @ApiErrorResponses(401, 403, 429)
  async list(): Promise<ServiceAccountDto[]> {
    return (await this.accounts.list()).map((a) => ServiceAccountDto.from(a));
  }

  @Get(':id')
  @AdminOnly()
  @ApiDataResponse(ServiceAccountDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async get(@UuidParam('id') id: string): Promise<ServiceAccountDto> {
    return ServiceAccountDto.from(await this.accounts.get(id));
  }

  @Delete(':id')
  @HttpCode(204)
  @AdminOnly()
  @ApiNoContentResponse({ description: 'Revoked (idempotent); the key stops working at once' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async revoke(@UuidParam('id') id: string): Promise<void> {
    await this.accounts.revoke(id);
  }

  @Post(':id/permissions')
  @HttpCode(201)
  @AdminOnly()
  @ApiDataResponse(PermissionGrantDto, { status: 201 })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429)
  async grant(
    @UuidParam('id') id: string,
    @Body() body: GrantPermissionDto,
    @CurrentAccess() access: AccessContext,
  ): Promise<PermissionGrantDto> {
    const grant = await this.accounts.grant(
      id,
      {
        permission: body.permission,
        level: body.level,
        projectId: body.project_id,
        productId: body.product_id,
        expiresAt: body.expires_at ? new Date(body.expires_at) : undefined,
      },
      access.principal.id,
    );
    return PermissionGrantDto.from(grant);
  }

  @Get(':id/permissions')
  @AdminOnly()
  @ApiDataResponse(PermissionGrantDto, { isArray: true })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async listGrants(@UuidParam('id') id: string): Promise<PermissionGrantDto[]> {
    return (await this.accounts.listGrants(id)).map((g) => PermissionGrantDto.from(g));
  }

  @Delete(':id/permissions/:permission_id')
  @HttpCode(204)
  @AdminOnly()
  @ApiNoContentResponse({ description: 'Grant removed' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async revokeGrant(
    @UuidParam('id') id: string,
    @UuidParam('permission_id') permissionId: string,
  ): Promise<void> {
    await this.accounts.revokeGrant(id, permissionId);
  }
}
