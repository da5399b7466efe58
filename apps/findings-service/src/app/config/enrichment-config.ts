import type { EnvReader } from '@platform/config';

/** Enrichment of findings by enricher plugins (docs/plugins/enrichment.md). */
export interface EnrichmentConfig {
  /**
   * PLUGIN_RUNNER_PER_PLUGIN_LIMIT (default 4, the runner's own variable): concurrent runs per
   * plugin. The enrichment queue has one worker less (spec: "enrichment queue workers: one
   * less than the per-plugin limit"), so a manual enrichment still finds a free slot.
   */
  perPluginLimit: number;
  /**
   * Concurrent enrichment jobs of ONE enricher across all worker replicas: perPluginLimit − 1,
   * at least 1 (a Redis-held token per job, docs/plugins/fairness.md).
   */
  workers: number;
  /**
   * ENRICHMENT_CONCURRENCY (default 4 × workers): enrichment jobs one worker process runs at a
   * time, of all enrichers together. Larger than one enricher's share, so enrichers that hang
   * cannot take every slot.
   */
  concurrency: number;
  /** ENRICHMENT_DEADLINE_STRIKES (default 3): jobs in a row failing on the deadline or a trap before a back-off. */
  deadlineStrikes: number;
  /** ENRICHMENT_BACKOFF_SECONDS (default 60): the first back-off; each next one doubles, up to 1 h. */
  backOffSeconds: number;
  /** ENRICHMENT_SUSPEND_AFTER_BACKOFFS (default 3): back-offs in a row before the enricher is suspended. */
  suspendAfterBackOffs: number;
  /** ENRICH_TAGS_RATE_LIMIT_PER_MINUTE (default 30): manual enrichments per identity and minute. */
  manualRatePerMinute: number;
  /** ENRICHMENT_FINDINGS_PER_JOB (default 1000): findings one enrichment job carries at most. */
  findingsPerJob: number;
}

export function readEnrichmentConfig(r: EnvReader): EnrichmentConfig {
  const perPluginLimit = r.int('PLUGIN_RUNNER_PER_PLUGIN_LIMIT', 4, { min: 1, max: 64 });
  const workers = Math.max(1, perPluginLimit - 1);
  return {
    perPluginLimit,
    workers,
    concurrency: r.int('ENRICHMENT_CONCURRENCY', 4 * workers, { min: 1, max: 1000 }),
    deadlineStrikes: r.int('ENRICHMENT_DEADLINE_STRIKES', 3, { min: 1, max: 1000 }),
    backOffSeconds: r.int('ENRICHMENT_BACKOFF_SECONDS', 60, { min: 1, max: 86_400 }),
    suspendAfterBackOffs: r.int('ENRICHMENT_SUSPEND_AFTER_BACKOFFS', 3, { min: 0, max: 1000 }),
    manualRatePerMinute: r.int('ENRICH_TAGS_RATE_LIMIT_PER_MINUTE', 30, { min: 1, max: 100_000 }),
    findingsPerJob: r.int('ENRICHMENT_FINDINGS_PER_JOB', 1000, { min: 1, max: 10_000 }),
  };
}

/** Finding sources (docs/plugins/finding-sources.md). */
export interface FindingSourcesConfig {
  /**
   * FINDING_SOURCE_POLL_INTERVAL_MINUTES (default 60): an enabled finding source is polled when
   * its last poll started this long ago (checked every minute by the leading worker).
   */
  pollIntervalMinutes: number;
}

export function readFindingSourcesConfig(r: EnvReader): FindingSourcesConfig {
  return {
    pollIntervalMinutes: r.int('FINDING_SOURCE_POLL_INTERVAL_MINUTES', 60, { min: 1, max: 10_080 }),
  };
}
