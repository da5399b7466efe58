import { DownloadLinksModule } from '../auth/download-links/download-links.module';
import { Module } from '@nestjs/common';
import { ActionLogModule } from '../action-log/action-log.module';
import { ProjectsModule } from '../projects/projects.module';
import { FindingCommentsController } from './comments/finding-comments.controller';
import { FindingCommentsRepository } from './comments/finding-comments.repository';
import { FindingCommentsService } from './comments/finding-comments.service';
import { FindingsExportService } from './export/findings-export.service';
import { FindingsOverviewController } from './findings-overview.controller';
import { FindingsOverviewService } from './findings-overview.service';
import { FindingChangesRepository } from './finding-changes.repository';
import { FindingsController } from './findings.controller';
import { FindingsQueryService } from './findings-query.service';
import { FindingSearchPlanner } from './search/finding-search-planner';
import { FindingsRepository } from './findings.repository';
import { BulkStatusController } from './lifecycle/bulk-status.controller';
import { BulkStatusRepository } from './lifecycle/bulk-status.repository';
import { BulkStatusService } from './lifecycle/bulk-status.service';
import { BulkTagsRepository } from './tags/bulk-tags.repository';
import { FindingTagsController } from './tags/finding-tags.controller';
import { FindingTagsService } from './tags/finding-tags.service';
import { FindingTriageService } from './triage/finding-triage.service';
import { FindingMergeController } from './merge/finding-merge.controller';
import { FindingMergesRepository } from './merge/finding-merges.repository';
import { FindingMergeService } from './merge/finding-merge.service';
import { GroupAxesController } from './groups/group-axes.controller';
import { GroupAxesRepository } from './groups/group-axes.repository';
import { GroupAxesService } from './groups/group-axes.service';

/**
 * The findings read/triage API: list and query language, PATCH/DELETE, bulk status change,
 * tags, comment threads, action log; count, groups and CSV export of the list's selection.
 */
@Module({
  imports: [ProjectsModule, ActionLogModule, DownloadLinksModule],
  controllers: [
    FindingTagsController,
    BulkStatusController,
    FindingCommentsController,
    FindingsOverviewController,
    FindingMergeController,
    GroupAxesController,
    FindingsController,
  ],
  providers: [
    FindingsRepository,
    FindingChangesRepository,
    BulkTagsRepository,
    FindingsQueryService,
    FindingSearchPlanner,
    FindingTriageService,
    FindingTagsService,
    BulkStatusRepository,
    BulkStatusService,
    FindingCommentsRepository,
    FindingCommentsService,
    FindingsOverviewService,
    FindingsExportService,
    FindingMergesRepository,
    FindingMergeService,
    GroupAxesRepository,
    GroupAxesService,
  ],
  exports: [FindingsQueryService, BulkStatusService],
})
export class FindingsModule {}
