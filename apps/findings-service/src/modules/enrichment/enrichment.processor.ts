import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { QueueConsumer } from '@platform/queue';
import { Tracing } from '@platform/tracing';
import { UnrecoverableError, type Job } from 'bullmq';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { enrichmentJobFailure, EnrichmentFairness } from './enrichment-fairness';
import { ENRICH_FINDINGS, ENRICHMENT_QUEUE } from './enrichment.job';
import { EnrichmentService, type EnrichmentOutcome } from './enrichment.service';

/** How long a job's lock lasts without renewal (BullMQ renews it while the job runs). */
const ENRICHMENT_LOCK_MS = 60_000;

/**
 * The consumer of the enrichment queue in the worker process: ENRICHMENT_CONCURRENCY jobs at a
 * time, each enricher within its share (EnrichmentFairness, docs/plugins/fairness.md; a job whose
 * every finding failed on the deadline or a trap is not retried). A payload that does not
 * validate ends the job (unrecoverable); a job whose every finding failed otherwise is retried
 * (attempts with backoff), a partly failed one completes with
 * its counts and per-finding failures as its return value (the failed findings keep their
 * tags). A job with failures logs a warning naming the job, each failed finding and its reason;
 * every failed attempt is logged with the job id and reason. The job's id is the runner event
 * id, so a retry of a job is the same event.
 */
@Injectable()
export class EnrichmentProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EnrichmentProcessor');
  private consumer: QueueConsumer | undefined;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly enrichment: EnrichmentService,
    private readonly tracing: Tracing,
    private readonly fairness: EnrichmentFairness,
  ) {}

  onApplicationBootstrap(): void {
    this.consumer = new QueueConsumer({
      redisUrl: this.config.redisUrl,
      prefix: this.config.reports.queuePrefix,
      queue: ENRICHMENT_QUEUE,
      connectionName: 'findings-worker-enrichment',
      tracing: this.tracing,
      logger: this.logger,
      worker: {
        concurrency: this.config.enrichment.concurrency,
        lockDuration: ENRICHMENT_LOCK_MS,
        maxStalledCount: 2,
      },
      process: (job) => this.process(job),
    });
    // Every failed attempt is logged with its job id and reason (a job that fails for good, too).
    this.consumer.worker.on('failed', (job, error) => {
      const attempts = job?.opts.attempts ?? 1;
      const made = job?.attemptsMade ?? 0;
      // Unrecoverable (deadline or trap only, a suspended enricher): no further attempt.
      const final = made >= attempts || error instanceof UnrecoverableError;
      this.logger.warn(
        `enrichment job ${job?.id ?? '?'} failed (attempt ${made} of ${attempts}${final ? ', given up' : ', retried'}): ${error.message.slice(0, 500)}`,
      );
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
  }

  private async process(job: Job): Promise<EnrichmentOutcome> {
    const payload = ENRICH_FINDINGS.parse(job.data);
    const started = Date.now();
    // Within the enricher's share; a backed-off one's job waits, a suspended one's fails.
    const outcome = await this.fairness.run(job, payload.installedPluginId, () =>
      this.enrichment.enrich(
        payload.installedPluginId,
        payload.projectId,
        payload.findingIds,
        `enrichment:${job.id ?? ''}`,
      ),
    );
    const summary = `enrichment job ${job.id}: ${outcome.skipped ?? `${outcome.enriched} enriched, ${outcome.failed} failed, ${outcome.missing} missing`} in ${Date.now() - started} ms`;
    if (outcome.failed > 0) {
      // Each failed finding with its reason (the job's return value keeps them too).
      const reasons = (outcome.failures ?? [])
        .slice(0, 10)
        .map((f) => `${f.findingId}: ${f.code}: ${f.message.slice(0, 200)}`)
        .join('; ');
      this.logger.warn(`${summary} — failed: ${reasons}`);
    } else {
      this.logger.log(summary);
    }
    if (outcome.enriched === 0 && outcome.failed > 0) {
      // Deadline and trap are not retried (another attempt would only repeat them).
      throw enrichmentJobFailure(
        outcome,
        `enrichment_failed: ${outcome.firstError?.code ?? 'unknown'}: ${outcome.firstError?.message ?? ''}`.slice(
          0,
          500,
        ),
      );
    }
    return outcome;
  }
}
