import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../app/access/access.decorators';
import { READER_ROLES } from '../../app/access/roles';
import { pageOf } from '../../app/http/paging.dto';
import { AgentUpdateService } from './agent-update.service';
import {
  DEFAULT_STUCK_HOURS,
  PlatformUpdateDto,
  StuckDevicesPageDto,
  StuckQueryDto,
} from './dto/agent-update.dto';

/** Agent-update views of the settings page: readable by every admin role (spec, Roles). */
@ApiTags('settings')
@Controller('api/v1/settings')
@Roles(...READER_ROLES)
export class AgentUpdateController {
  constructor(private readonly agentUpdates: AgentUpdateService) {}

  @Get('agent-update/stuck')
  @ApiOkResponse({ type: StuckDevicesPageDto })
  async stuck(@Query() query: StuckQueryDto): Promise<StuckDevicesPageDto> {
    const now = new Date();
    const paging = pageOf(query);
    const result = await this.agentUpdates.stuck(
      { minHours: query.min_hours ?? DEFAULT_STUCK_HOURS, ...paging },
      now,
    );
    return StuckDevicesPageDto.from(result, paging, now);
  }

  @Get('platform-update')
  @ApiOkResponse({ type: PlatformUpdateDto })
  async platformUpdate(): Promise<PlatformUpdateDto> {
    return PlatformUpdateDto.from(await this.agentUpdates.platformUpdate());
  }
}
