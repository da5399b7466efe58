import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccessContext } from '../../app/access/access-context';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { EnrichmentError } from './enrichment.errors';
import { EnrichmentRepository, type EnrichmentTag } from './enrichment.repository';
import { EnrichmentService } from './enrichment.service';

/**
 * POST /findings/{id}/enrich-tags/{plugin_id}: runs one enabled enricher on one finding now
 * and writes its tags (they replace that enricher's previous tags). Needs `write_findings` on
 * the finding (a finding the caller cannot read is 404); counted against
 * ENRICH_TAGS_RATE_LIMIT_PER_MINUTE per user besides the general limits.
 */
@Injectable()
export class ManualEnrichmentService {
  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly rateLimits: RateLimitService,
    private readonly repository: EnrichmentRepository,
    private readonly enrichment: EnrichmentService,
  ) {}

  async enrich(
    access: AccessContext,
    findingId: string,
    pluginId: string,
  ): Promise<{ tags: EnrichmentTag[]; enrichmentTags: string[] }> {
    const target = await this.repository.findingTarget(findingId);
    if (!target || !access.can('read_findings', target)) {
      throw new EnrichmentError('finding_not_found');
    }
    if (!access.can('write_findings', target)) throw new EnrichmentError('access_denied');
    await this.rateLimits.checkRouteLimit(
      'enrich-tags',
      access.principal,
      this.config.enrichment.manualRatePerMinute,
    );
    await this.enrichment.enricher(pluginId);
    const outcome = await this.enrichment.enrich(
      pluginId,
      target.projectId,
      [findingId],
      `manual:${randomUUID()}`,
    );
    if (outcome.skipped) throw new EnrichmentError('enricher_not_found', { plugin_id: pluginId });
    const refused = outcome.firstError?.code;
    if (
      outcome.enriched === 0 &&
      (refused === 'invalid_answer' || refused === 'answer_too_large')
    ) {
      throw new EnrichmentError(refused, {
        plugin_id: pluginId,
        reason: refused,
        problem: outcome.firstError?.message ?? '',
      });
    }
    if (outcome.enriched === 0) {
      throw new EnrichmentError('enrichment_failed', {
        plugin_id: pluginId,
        reason: outcome.firstError?.code ?? 'unknown',
        message: outcome.firstError?.message ?? '',
      });
    }
    const all = await this.repository.tagsOf(findingId);
    return {
      tags: all.filter((t) => t.pluginId === pluginId).map(({ key, value }) => ({ key, value })),
      enrichmentTags: [...new Set(all.map((t) => `${t.key}:${t.value}`))].sort(),
    };
  }
}
