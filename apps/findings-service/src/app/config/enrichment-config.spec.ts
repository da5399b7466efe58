import { EnvReader } from '@platform/config';
import { readEnrichmentConfig } from './enrichment-config';

const read = (env: Record<string, string>) => readEnrichmentConfig(new EnvReader(env));

describe('enrichment config', () => {
  it('runs one enrichment worker less than the per-plugin limit (spec: Limits)', () => {
    expect(read({})).toMatchObject({ perPluginLimit: 4, workers: 3 });
    expect(read({ PLUGIN_RUNNER_PER_PLUGIN_LIMIT: '8' })).toMatchObject({ workers: 7 });
  });

  it('keeps at least one worker when the per-plugin limit is 1', () => {
    expect(read({ PLUGIN_RUNNER_PER_PLUGIN_LIMIT: '1' })).toMatchObject({ workers: 1 });
  });

  it('runs 4 × the per-enricher share of jobs per worker process, so hanging enrichers cannot take every slot', () => {
    expect(read({})).toMatchObject({ workers: 3, concurrency: 12 });
    expect(read({ ENRICHMENT_CONCURRENCY: '5' })).toMatchObject({ concurrency: 5 });
  });

  it('backs an enricher off after 3 jobs in a row on the deadline, 60 s doubling, suspends after 3 back-offs', () => {
    expect(read({})).toMatchObject({
      deadlineStrikes: 3,
      backOffSeconds: 60,
      suspendAfterBackOffs: 3,
    });
  });

  it('defaults: 30 manual enrichments per minute, 1 000 findings per job', () => {
    expect(read({})).toMatchObject({ manualRatePerMinute: 30, findingsPerJob: 1000 });
  });
});
