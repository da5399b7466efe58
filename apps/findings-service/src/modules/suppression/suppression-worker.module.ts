import { Module } from '@nestjs/common';
import { SuppressionCoreModule } from './suppression-core.module';
import { SuppressionRunProcessor } from './suppression-run.processor';
import { SuppressionRunRunner } from './suppression-run.runner';

/** The worker side: the consumer of rule runs over accumulated findings. */
@Module({
  imports: [SuppressionCoreModule],
  providers: [SuppressionRunRunner, SuppressionRunProcessor],
})
export class SuppressionWorkerModule {}
