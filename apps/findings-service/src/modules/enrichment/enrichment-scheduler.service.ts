import { Inject, Injectable } from '@nestjs/common';
import { addJob } from '@platform/queue';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';
import { EnrichmentQueue } from './enrichment-queue.provider';
import {
  ENRICH_FINDINGS,
  ENRICHMENT_JOB_RETENTION_SECONDS,
  type EnrichmentTrigger,
} from './enrichment.job';
import { EnrichmentRepository } from './enrichment.repository';

/** Attempts of an enrichment job (the runner or the enriched system may be down a while). */
export const ENRICHMENT_JOB_ATTEMPTS = 3;

/**
 * When findings appear: one background enrichment job per enabled enricher and batch of
 * findings (ENRICHMENT_FINDINGS_PER_JOB), never one per finding. With no enricher enabled it
 * reads nothing else and queues nothing.
 */
@Injectable()
export class EnrichmentScheduler {
  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly plugins: InstalledPluginsService,
    private readonly repository: EnrichmentRepository,
    private readonly queue: EnrichmentQueue,
  ) {}

  /** After a report was ingested: its new findings, per enabled enricher. Returns jobs queued. */
  async reportIngested(reportId: string): Promise<number> {
    const enrichers = await this.plugins.listEnabledByCapability('finding_enricher');
    if (enrichers.length === 0) return 0;
    const found = await this.repository.newFindingsOfReport(reportId);
    if (!found || found.findingIds.length === 0) return 0;
    return this.schedule(
      enrichers.map((e) => e.id),
      found.projectId,
      found.findingIds,
      'report',
      reportId,
    );
  }

  /** A finding created by hand (or by a finding source). */
  async findingsCreated(projectId: string, findingIds: string[], key: string): Promise<number> {
    if (findingIds.length === 0) return 0;
    const enrichers = await this.plugins.listEnabledByCapability('finding_enricher');
    if (enrichers.length === 0) return 0;
    return this.schedule(
      enrichers.map((e) => e.id),
      projectId,
      findingIds,
      'finding_created',
      key,
    );
  }

  private async schedule(
    pluginIds: string[],
    projectId: string,
    findingIds: string[],
    trigger: EnrichmentTrigger,
    key: string,
  ): Promise<number> {
    const size = this.config.enrichment.findingsPerJob;
    let queued = 0;
    for (const pluginId of pluginIds) {
      for (let start = 0; start < findingIds.length; start += size) {
        await addJob(
          this.queue.queue,
          ENRICH_FINDINGS,
          {
            installedPluginId: pluginId,
            projectId,
            findingIds: findingIds.slice(start, start + size),
            trigger,
            ...(trigger === 'report' ? { reportId: key } : {}),
          },
          {
            // Deterministic: a retried ingestion job does not queue the same batch twice.
            jobId: `${trigger}_${key}_${pluginId}_${start / size}`,
            attempts: ENRICHMENT_JOB_ATTEMPTS,
            backoff: { type: 'exponential', delay: 2_000 },
            removeOnComplete: { age: ENRICHMENT_JOB_RETENTION_SECONDS.completed },
            removeOnFail: { age: ENRICHMENT_JOB_RETENTION_SECONDS.failed },
          },
        );
        queued += 1;
      }
    }
    return queued;
  }
}
