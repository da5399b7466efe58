import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActionLogModule } from '../../action-log/action-log.module';
import { EnrichmentCoreModule } from '../../enrichment/enrichment-core.module';
import { ProductsModule } from '../../products/products.module';
import { ProjectsModule } from '../../projects/projects.module';
import { FindingEntity } from '../finding.entity';
import { ManualFindingsController } from './manual-findings.controller';
import { ManualFindingsRepository } from './manual-findings.repository';
import { ManualFindingsService } from './manual-findings.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([FindingEntity]),
    ActionLogModule,
    ProductsModule,
    ProjectsModule,
    EnrichmentCoreModule,
  ],
  controllers: [ManualFindingsController],
  providers: [ManualFindingsRepository, ManualFindingsService],
})
export class ManualFindingsModule {}
