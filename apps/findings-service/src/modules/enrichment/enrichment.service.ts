import { Injectable, Logger } from '@nestjs/common';
import type { InstalledPlugin } from '../plugins/installed-plugins/installed-plugin';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';
import {
  PluginRunnerClient,
  type PluginInvocationResult,
} from '../plugin-runner-client/plugin-runner.client';
import { EnrichmentError } from './enrichment.errors';
import {
  EnrichmentRepository,
  type EnrichableFinding,
  type EnrichmentResult,
} from './enrichment.repository';
import { enrichmentTagsOf } from './enrichment-tags';

/** Findings whose tags are written together (one set-based write per chunk). */
export const ENRICHMENT_WRITE_CHUNK = 500;

export interface EnrichmentOutcome {
  /** Findings whose tags were replaced by this enricher's answer. */
  enriched: number;
  /** Findings the enricher failed on (their tags are unchanged). */
  failed: number;
  /** Findings asked for that no longer exist or are in another project. */
  missing: number;
  /** The first failure: code and message (scrubbed by the runner). */
  firstError?: { code: string; message: string };
  /** The enricher is not installed, disabled or no longer an enricher: nothing was done. */
  skipped?: 'not_installed' | 'disabled' | 'not_an_enricher';
}

/** The WIT `finding` record (optional fields left out when empty). */
function witFinding(f: EnrichableFinding): Record<string, unknown> {
  const { projectId: _projectId, ...record } = f;
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

/**
 * Runs one enricher over findings of one project through the plugin runner and writes what it
 * answered. Every call of one run uses the same event id, so the runner keeps serving them
 * from one instance per sandbox thread and the plugin may reuse what it fetched (e.g. the
 * CMDB table) across the findings of the run. Tags are written set-based per chunk; a finding
 * the enricher failed on keeps its previous tags.
 */
@Injectable()
export class EnrichmentService {
  private readonly logger = new Logger('Enrichment');

  constructor(
    private readonly plugins: InstalledPluginsService,
    private readonly runner: PluginRunnerClient,
    private readonly repository: EnrichmentRepository,
  ) {}

  /** The enabled enricher `id`, or EnrichmentError enricher_not_found. */
  async enricher(id: string): Promise<InstalledPlugin> {
    const plugin = await this.plugins.get(id).catch(() => undefined);
    if (!plugin || !plugin.enabled || !plugin.capabilities.includes('finding_enricher')) {
      throw new EnrichmentError('enricher_not_found', { plugin_id: id });
    }
    return plugin;
  }

  async enrich(
    pluginId: string,
    projectId: string,
    findingIds: string[],
    eventId: string,
  ): Promise<EnrichmentOutcome> {
    const plugin = await this.plugins.get(pluginId).catch(() => undefined);
    if (!plugin) return { enriched: 0, failed: 0, missing: 0, skipped: 'not_installed' };
    if (!plugin.enabled) return { enriched: 0, failed: 0, missing: 0, skipped: 'disabled' };
    if (!plugin.capabilities.includes('finding_enricher')) {
      return { enriched: 0, failed: 0, missing: 0, skipped: 'not_an_enricher' };
    }
    await this.plugins.ensureLoaded(plugin.id);
    const findings = await this.repository.findingsForEnrichment(projectId, findingIds);
    const outcome: EnrichmentOutcome = {
      enriched: 0,
      failed: 0,
      missing: findingIds.length - findings.length,
    };
    let pending: EnrichmentResult[] = [];
    const flush = async () => {
      if (pending.length === 0) return;
      await this.repository.replaceTags(plugin.id, pending, new Date());
      outcome.enriched += pending.length;
      pending = [];
    };
    for (const finding of findings) {
      const result = await this.invoke(plugin, projectId, eventId, finding);
      const tags = result.ok ? enrichmentTagsOf(result.value) : undefined;
      if (tags) {
        pending.push({ findingId: finding.id, tags });
        if (pending.length >= ENRICHMENT_WRITE_CHUNK) await flush();
      } else {
        outcome.failed += 1;
        outcome.firstError ??= result.ok
          ? { code: 'invalid_answer', message: 'the enricher answered something other than tags' }
          : { code: result.error.code, message: result.error.message };
      }
    }
    await flush();
    if (outcome.failed > 0) {
      this.logger.warn(
        `enricher ${plugin.id}: ${outcome.failed} of ${findings.length} findings failed (${outcome.firstError?.code}: ${outcome.firstError?.message})`,
      );
    }
    return outcome;
  }

  /** One enrich call; a runner that forgot the plugin (restarted) gets it again, once. */
  private async invoke(
    plugin: InstalledPlugin,
    projectId: string,
    eventId: string,
    finding: EnrichableFinding,
  ): Promise<PluginInvocationResult> {
    const invocation = {
      context: {
        pluginId: plugin.id,
        versionDigest: plugin.artifactSha256,
        projectId,
        eventId,
      },
      capability: 'finding_enricher',
      operation: 'enrich',
      payload: { finding: witFinding(finding) },
      settings: plugin.settings,
    };
    const first = await this.runner.invoke(invocation);
    if (first.ok || first.error.code !== 'not_loaded') return first;
    await this.plugins.ensureLoaded(plugin.id, { force: true });
    return this.runner.invoke(invocation);
  }
}
