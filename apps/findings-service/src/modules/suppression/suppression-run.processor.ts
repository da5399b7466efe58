import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { QueueConsumer } from '@platform/queue';
import { Tracing } from '@platform/tracing';
import type { Job } from 'bullmq';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { SuppressionRulesRepository } from './suppression-rules.repository';
import { SuppressionRunsRepository } from './suppression-runs.repository';
import { SUPPRESSION_RUN, SUPPRESSION_RUN_QUEUE } from './suppression-run.job';
import { SuppressionRunRunner, type RunResult } from './suppression-run.runner';
import { systemActor } from '../action-log/finding-action';

/**
 * The consumer of the suppression-run queue in the worker (concurrency 1 per replica: a run is
 * a long chain of bulk UPDATEs). A failure marks the rule's run `failed` and logs it.
 */
@Injectable()
export class SuppressionRunProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SuppressionRunProcessor');
  private consumer: QueueConsumer | undefined;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly runner: SuppressionRunRunner,
    private readonly rules: SuppressionRulesRepository,
    private readonly runs: SuppressionRunsRepository,
    private readonly tracing: Tracing,
  ) {}

  onApplicationBootstrap(): void {
    this.consumer = new QueueConsumer({
      redisUrl: this.config.redisUrl,
      prefix: this.config.reports.queuePrefix,
      queue: SUPPRESSION_RUN_QUEUE,
      connectionName: 'findings-worker-suppression-run',
      tracing: this.tracing,
      logger: this.logger,
      worker: { concurrency: 1, lockDuration: 60_000, maxStalledCount: 3 },
      process: (job) => this.process(job),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
  }

  private async process(job: Job): Promise<RunResult> {
    const payload = SUPPRESSION_RUN.parse(job.data);
    try {
      return await this.runner.run(payload, (p) => job.updateProgress({ ...p }));
    } catch (error) {
      await this.rules.transaction(async (manager) => {
        await this.runs.finishRun(payload.ruleId, payload.jobId, 'failed', manager);
        await this.rules.log(manager, {
          ruleId: payload.ruleId,
          projectId: payload.projectId,
          actor: systemActor('suppression-run'),
          action: 'run_failed',
          to: { job_id: payload.jobId, cause: 'error' },
        });
      });
      throw error;
    }
  }
}
