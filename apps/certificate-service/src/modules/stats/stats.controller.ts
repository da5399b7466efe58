import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../app/access/access.decorators';
import { READER_ROLES } from '../../app/access/roles';
import { StatsDto } from './dto/stats.dto';
import { StatsService } from './stats.service';

@ApiTags('stats')
@Controller('api/v1/admin')
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get('stats')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: StatsDto })
  dashboard(): Promise<StatsDto> {
    return this.stats.dashboard();
  }
}
