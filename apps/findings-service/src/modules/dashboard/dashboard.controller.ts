import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { SlaComplianceDto, SlaTrendDto, SlaTrendPointDto } from './dto/dashboard.dto';
import {
  DashboardQueryDto,
  DEFAULT_WINDOW_DAYS,
  SlaTrendQueryDto,
  toFigureFilter,
} from './dto/dashboard-query.dto';
import { DashboardService } from './dashboard.service';

/** The service's own dashboards: `read_metrics` (users: global admins; keys: global grant). */
@ApiTags('dashboard')
@Controller(`${API_PREFIX}/dashboard`)
@Access({ permission: 'read_metrics' })
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get('sla-compliance')
  @ApiOperation({
    summary: 'Remediation deadlines now and over the last N days, per severity and overall',
  })
  @ApiDataResponse(SlaComplianceDto)
  @ApiErrorResponses(400, 401, 403, 429)
  async compliance(@Query() query: DashboardQueryDto): Promise<SlaComplianceDto> {
    return SlaComplianceDto.from(
      await this.dashboard.compliance(toFigureFilter(query), query.days ?? DEFAULT_WINDOW_DAYS),
    );
  }

  @Get('sla-trend')
  @ApiOperation({ summary: 'Per UTC day: violations opened, fixes, fixes in time, MTTR' })
  @ApiDataResponse(SlaTrendDto)
  @ApiErrorResponses(400, 401, 403, 429)
  async trend(@Query() query: SlaTrendQueryDto): Promise<SlaTrendDto> {
    const days = query.days ?? DEFAULT_WINDOW_DAYS;
    const groupBy = query.group_by ?? 'none';
    const window = this.dashboard.window(days);
    const points = await this.dashboard.trend(toFigureFilter(query), days, groupBy === 'severity');
    return {
      from: window.from.toISOString(),
      to: window.to.toISOString(),
      days,
      group_by: groupBy,
      points: points.map((p) => SlaTrendPointDto.from(p)),
    };
  }
}
