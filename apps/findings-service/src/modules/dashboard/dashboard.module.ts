import { DynamicModule, Module } from '@nestjs/common';
import { DashboardController } from './dashboard.controller';
import { DashboardRepository } from './dashboard.repository';
import { DashboardService } from './dashboard.service';
import { dashboardToolController } from './dashboard-tool.controller';

/** Dashboards: `/api/v1/dashboard/*` and the external tool's `/api/v1/{toolSegment}/*`. */
@Module({})
export class DashboardModule {
  static forRoot(toolSegment: string): DynamicModule {
    return {
      module: DashboardModule,
      controllers: [DashboardController, dashboardToolController(toolSegment)],
      providers: [DashboardRepository, DashboardService],
    };
  }
}
