import { Module } from '@nestjs/common';
import { ActionLogModule } from '../action-log/action-log.module';
import { ProjectsModule } from '../projects/projects.module';
import { SlaViolationsController } from './sla-violations.controller';
import { SlaViolationsRepository } from './sla-violations.repository';
import { SlaViolationsService } from './sla-violations.service';

/** The API side of remediation deadlines: the violations routes. */
@Module({
  imports: [ProjectsModule, ActionLogModule],
  controllers: [SlaViolationsController],
  providers: [SlaViolationsRepository, SlaViolationsService],
})
export class SlaModule {}
