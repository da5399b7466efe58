import { Module } from '@nestjs/common';
import { OutboundHttpModule } from '../outbound-http/outbound-http.module';
import { ProjectsModule } from '../projects/projects.module';
import { NetboxClient } from './ipam/netbox-client';
import { ScopeImportService } from './ipam/scope-import.service';
import { ScopeAccess } from './scope-access';
import { ScopeAssetsController } from './scope-assets.controller';
import { ScopeAssetsService } from './scope-assets.service';
import { ScopeEntriesService } from './scope-entries.service';
import { ScopeEntryWriter } from './scope-entry-writer';
import { ScopeProposalsController } from './scope-proposals.controller';
import { ScopeProposalsService } from './scope-proposals.service';
import { ScopeController } from './scope.controller';
import { ScopeRepository } from './scope.repository';

/**
 * The scan perimeter (docs/findings-service/scope.md): owns scope_entries, scope_proposals
 * and scope_assets (only ScopeRepository writes them).
 */
@Module({
  imports: [ProjectsModule, OutboundHttpModule],
  controllers: [ScopeController, ScopeProposalsController, ScopeAssetsController],
  providers: [
    ScopeRepository,
    ScopeAccess,
    ScopeEntryWriter,
    ScopeEntriesService,
    ScopeProposalsService,
    ScopeAssetsService,
    NetboxClient,
    ScopeImportService,
  ],
})
export class ScopeModule {}
