import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import {
  CreateK8sClusterDto,
  K8sClusterDto,
  K8sClusterListDto,
  UpdateK8sClusterDto,
} from './dto/k8s-cluster.dto';
import { K8sClustersService } from './k8s-clusters.service';

/** Kubernetes cluster registry: every route, reads included, is cert-admin only. */
@ApiTags('kubernetes')
@Controller('api/v1/admin/k8s-clusters')
@Roles('cert-admin')
export class K8sClustersController {
  constructor(private readonly clusters: K8sClustersService) {}

  @Get()
  @ApiOkResponse({ type: K8sClusterListDto })
  async list(): Promise<K8sClusterListDto> {
    return { items: (await this.clusters.list()).map(K8sClusterDto.from) };
  }

  @Post()
  @ApiCreatedResponse({ type: K8sClusterDto })
  async create(
    @CurrentActor() actor: Actor,
    @Body() body: CreateK8sClusterDto,
  ): Promise<K8sClusterDto> {
    return K8sClusterDto.from(
      await this.clusters.create(actor, {
        name: body.name,
        serverUrl: body.server_url,
        caBundle: body.ca_bundle,
        groupMappings: body.groups ?? [],
        enabled: body.enabled ?? true,
      }),
    );
  }

  @Put(':id')
  @ApiOkResponse({ type: K8sClusterDto })
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: UpdateK8sClusterDto,
  ): Promise<K8sClusterDto> {
    return K8sClusterDto.from(
      await this.clusters.update(actor, id, {
        name: body.name,
        serverUrl: body.server_url,
        caBundle: body.ca_bundle,
        groupMappings: body.groups,
        enabled: body.enabled,
      }),
    );
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({
    description: 'deleted; credentials already issued work until they expire',
  })
  async delete(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.clusters.delete(actor, id);
  }
}
