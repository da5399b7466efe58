import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { ReportQueueModule } from '../report-queue/report-queue.module';
import { ReportsModule } from '../reports/reports.module';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

@Module({
  imports: [ReportQueueModule, ReportsModule, ProjectsModule],
  controllers: [JobsController],
  providers: [JobsService],
})
export class JobsModule {}
