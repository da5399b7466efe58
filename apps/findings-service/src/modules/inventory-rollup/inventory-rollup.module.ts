import { Module } from '@nestjs/common';
import { FindingsModule } from '../findings/findings.module';
import { ProjectsModule } from '../projects/projects.module';
import { TicketsModule } from '../tickets/tickets.module';
import { InventoryRollupController } from './inventory-rollup.controller';
import { InventoryRollupRepository } from './inventory-rollup.repository';
import { InventoryRollupService } from './inventory-rollup.service';

/**
 * Inventory roll-ups by package, host and CVE (docs/findings-service/groups-and-rollups.md):
 * reads findings; changes go through the findings bulk status and the tickets module.
 */
@Module({
  imports: [FindingsModule, ProjectsModule, TicketsModule],
  controllers: [InventoryRollupController],
  providers: [InventoryRollupRepository, InventoryRollupService],
})
export class InventoryRollupModule {}
