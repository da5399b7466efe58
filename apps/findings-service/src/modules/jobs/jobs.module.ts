import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { ReportQueueModule } from '../report-queue/report-queue.module';
import { ReportsModule } from '../reports/reports.module';
import { TicketBackfillControlModule } from '../tickets/backfill/ticket-backfill-control.module';
import { TicketBackfillQueue } from '../tickets/backfill/ticket-backfill-queue.provider';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

@Module({
  imports: [ReportQueueModule, ReportsModule, ProjectsModule, TicketBackfillControlModule],
  controllers: [JobsController],
  providers: [JobsService, TicketBackfillQueue],
})
export class JobsModule {}
