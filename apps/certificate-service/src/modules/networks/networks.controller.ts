import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { READER_ROLES } from '../../app/access/roles';
import { CsvExport } from '../../app/http/csv-export.decorator';
import { toCsv } from '../../app/http/csv';
import {
  CreateNetworkDto,
  NETWORK_CSV_COLUMNS,
  NetworkDto,
  NetworkListDto,
  SetNetworkFlagDto,
  SetRadiusServerNamesDto,
  networkCsvRow,
} from './dto/network.dto';
import { NetworksService } from './networks.service';

/**
 * Networks (spec "Networks"): cert-admin writes; the list and its CSV are readable by the three
 * person roles. Service accounts reach nothing here.
 */
@ApiTags('networks')
@Controller('api/v1/admin')
@Roles('cert-admin')
export class NetworksController {
  constructor(private readonly networks: NetworksService) {}

  @Get('networks')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: NetworkListDto })
  async list(): Promise<NetworkListDto> {
    return { items: (await this.networks.list()).map(NetworkDto.from) };
  }

  @CsvExport('networks.csv', 'the rows of GET /admin/networks, one per line, with a header')
  @Roles(...READER_ROLES)
  async csv(): Promise<string> {
    const rows = (await this.networks.list()).map(NetworkDto.from);
    return toCsv(NETWORK_CSV_COLUMNS, rows.map(networkCsvRow));
  }

  @Post('networks')
  @ApiCreatedResponse({ type: NetworkDto })
  async create(@CurrentActor() actor: Actor, @Body() body: CreateNetworkDto): Promise<NetworkDto> {
    return NetworkDto.from(
      await this.networks.create(actor, {
        kind: body.kind,
        name: body.name,
        ssid: body.ssid,
        hidden: body.hidden,
        eapMethod: body.eap_method,
        radiusServerNames: body.radius_server_names,
        agentProfileDisabled: body.agent_profile_disabled,
        macosAgentProfileDisabled: body.macos_agent_profile_disabled,
      }),
    );
  }

  @Delete('networks/:id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'deleted fully; agents stop receiving it' })
  async delete(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.networks.delete(actor, id);
  }

  @Post('networks/:id/disable')
  @HttpCode(200)
  @ApiOkResponse({ type: NetworkDto, description: 'soft delete; idempotent' })
  async disable(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<NetworkDto> {
    return NetworkDto.from(await this.networks.disable(actor, id));
  }

  @Post('networks/:id/restore')
  @HttpCode(200)
  @ApiOkResponse({ type: NetworkDto, description: '409 when it is wired and another is active' })
  async restore(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<NetworkDto> {
    return NetworkDto.from(await this.networks.restore(actor, id));
  }

  @Put('networks/:id/agent-profile-disabled')
  @ApiOkResponse({ type: NetworkDto, description: 'opt-out of the agent profile (Windows, Linux)' })
  async agentProfile(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: SetNetworkFlagDto,
  ): Promise<NetworkDto> {
    return NetworkDto.from(await this.networks.setAgentProfileDisabled(actor, id, body.disabled));
  }

  @Put('networks/:id/macos-agent-profile-disabled')
  @ApiOkResponse({ type: NetworkDto, description: 'opt-out of the profile on macOS' })
  async macosAgentProfile(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: SetNetworkFlagDto,
  ): Promise<NetworkDto> {
    return NetworkDto.from(
      await this.networks.setMacosAgentProfileDisabled(actor, id, body.disabled),
    );
  }

  @Put('networks/:id/radius-server-names')
  @ApiOkResponse({ type: NetworkDto })
  async radiusServerNames(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: SetRadiusServerNamesDto,
  ): Promise<NetworkDto> {
    return NetworkDto.from(
      await this.networks.setRadiusServerNames(actor, id, body.radius_server_names),
    );
  }
}
