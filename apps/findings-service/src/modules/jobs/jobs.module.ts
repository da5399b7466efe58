import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { ReportsModule } from '../reports/reports.module';
import { JobsController } from './jobs.controller';
import { JobsQueueModule } from './jobs-queue.module';
import { JobsService } from './jobs.service';

@Module({
  imports: [JobsQueueModule, ReportsModule, ProjectsModule],
  controllers: [JobsController],
  providers: [JobsService],
})
export class JobsModule {}
