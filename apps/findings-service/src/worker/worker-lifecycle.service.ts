import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { currentBuildInfo } from '@platform/versioning';

/** Announces the worker's start and stop with its build identity. */
@Injectable()
export class WorkerLifecycleService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Worker');

  onApplicationBootstrap(): void {
    const build = currentBuildInfo();
    this.logger.log(
      `findings worker started: component=worker version=${build.version} commit=${build.commit} built_at=${build.builtAt}`,
    );
  }

  onApplicationShutdown(signal?: string): void {
    this.logger.log(`findings worker stopping${signal ? ` (${signal})` : ''}`);
  }
}
