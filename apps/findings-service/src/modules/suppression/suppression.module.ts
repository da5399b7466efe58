import { Module } from '@nestjs/common';
import { ProjectsModule } from '../projects/projects.module';
import { SuppressionCoreModule } from './suppression-core.module';
import { SuppressionRulesController } from './suppression-rules.controller';
import { SuppressionRulesService } from './suppression-rules.service';
import { SuppressionRunQueue } from './suppression-run-queue.provider';

/** The API side of suppression rules (docs/findings-service/suppression.md). */
@Module({
  imports: [ProjectsModule, SuppressionCoreModule],
  controllers: [SuppressionRulesController],
  providers: [SuppressionRulesService, SuppressionRunQueue],
})
export class SuppressionModule {}
