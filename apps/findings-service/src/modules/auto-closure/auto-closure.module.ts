import { DynamicModule, Module } from '@nestjs/common';
import { FindingsModule } from '../findings/findings.module';
import { ProjectsModule } from '../projects/projects.module';
import { AutoClosureCoreModule } from './auto-closure-core.module';
import { AutoClosureViewRepository } from './auto-closure-view.repository';
import { AutoClosureViewService } from './auto-closure-view.service';
import { AutoClosureController, VerificationEndpointController } from './auto-closure.controller';
import { ReverificationController } from './reverification.controller';
import { VerificationEndpointsService } from './verification-endpoints.service';

/**
 * The API side: why a finding is (not) closed, the projects' re-verification endpoints, and the
 * manual re-verification routes — mounted only when FEATURE_MANUAL_REVERIFICATION is on.
 */
@Module({})
export class AutoClosureModule {
  static forRoot(options: { manualReverification: boolean }): DynamicModule {
    return {
      module: AutoClosureModule,
      imports: [AutoClosureCoreModule, FindingsModule, ProjectsModule],
      controllers: [
        AutoClosureController,
        VerificationEndpointController,
        ...(options.manualReverification ? [ReverificationController] : []),
      ],
      providers: [AutoClosureViewRepository, AutoClosureViewService, VerificationEndpointsService],
      exports: [AutoClosureCoreModule],
    };
  }
}
