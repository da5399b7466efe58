import { Module } from '@nestjs/common';
import { ActionLogModule } from '../action-log/action-log.module';
import { ProjectsModule } from '../projects/projects.module';
import { FindingChangesRepository } from './finding-changes.repository';
import { FindingsController } from './findings.controller';
import { FindingsQueryService } from './findings-query.service';
import { FindingsRepository } from './findings.repository';
import { BulkTagsRepository } from './tags/bulk-tags.repository';
import { FindingTagsController } from './tags/finding-tags.controller';
import { FindingTagsService } from './tags/finding-tags.service';
import { FindingTriageService } from './triage/finding-triage.service';

/** The findings read/triage API: list and query language, PATCH/DELETE, tags, action log. */
@Module({
  imports: [ProjectsModule, ActionLogModule],
  controllers: [FindingTagsController, FindingsController],
  providers: [
    FindingsRepository,
    FindingChangesRepository,
    BulkTagsRepository,
    FindingsQueryService,
    FindingTriageService,
    FindingTagsService,
  ],
})
export class FindingsModule {}
