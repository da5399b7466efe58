import { Controller, Get, Query, type Type } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Clock } from '../../app/clock';
import { Access } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import {
  toolStatsRow,
  ToolProductStatsRowDto,
  ToolSlaMetricsRowDto,
  ToolStatsRowDto,
} from './dto/dashboard.dto';
import { DashboardToolQueryDto, DEFAULT_WINDOW_DAYS } from './dto/dashboard-query.dto';
import { DashboardService } from './dashboard.service';

/**
 * Figures for an external dashboard tool under `/api/v1/{DASHBOARD_TOOL_SEGMENT}/...` (default
 * `grafana`): flat arrays of flat objects in `data` (root selector `data`), timestamps as epoch
 * milliseconds (and ISO where a time series needs one) — what Grafana's Infinity or JSON API
 * data sources read without transformations (docs/findings-service/lifecycle.md#dashboards).
 */
export function dashboardToolController(segment: string): Type<unknown> {
  @ApiTags('dashboard')
  @Controller(`${API_PREFIX}/${segment}`)
  @Access({ permission: 'read_metrics' })
  class DashboardToolController {
    constructor(
      private readonly dashboard: DashboardService,
      private readonly clock: Clock,
    ) {}

    @Get('projects/stats')
    @ApiOperation({ summary: 'One row per project: findings, deadlines, fixes, MTTR' })
    @ApiDataResponse(ToolStatsRowDto, { isArray: true })
    @ApiErrorResponses(400, 401, 403, 429)
    async projects(@Query() query: DashboardToolQueryDto): Promise<ToolStatsRowDto[]> {
      const at = this.clock.now();
      const rows = await this.dashboard.groupStats('project', query.days ?? DEFAULT_WINDOW_DAYS);
      return rows.map((g) => toolStatsRow(g, 'project', at));
    }

    @Get('products/stats')
    @ApiOperation({ summary: 'One row per product (with its project)' })
    @ApiDataResponse(ToolProductStatsRowDto, { isArray: true })
    @ApiErrorResponses(400, 401, 403, 429)
    async products(@Query() query: DashboardToolQueryDto): Promise<ToolStatsRowDto[]> {
      const at = this.clock.now();
      const rows = await this.dashboard.groupStats('product', query.days ?? DEFAULT_WINDOW_DAYS);
      return rows.map((g) => toolStatsRow(g, 'product', at));
    }

    @Get('sla/metrics')
    @ApiOperation({ summary: 'Time series: one row per UTC day and severity' })
    @ApiDataResponse(ToolSlaMetricsRowDto, { isArray: true })
    @ApiErrorResponses(400, 401, 403, 429)
    async slaMetrics(@Query() query: DashboardToolQueryDto): Promise<ToolSlaMetricsRowDto[]> {
      const points = await this.dashboard.trend({}, query.days ?? DEFAULT_WINDOW_DAYS, true);
      return points.map((p) => ToolSlaMetricsRowDto.from(p));
    }
  }
  return DashboardToolController;
}
