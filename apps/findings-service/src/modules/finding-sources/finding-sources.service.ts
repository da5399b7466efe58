import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { FindingsMetrics } from '../../app/metrics/findings-metrics';
import { systemActor } from '../action-log/finding-action';
import { EnrichmentScheduler } from '../enrichment/enrichment-scheduler.service';
import type { InstalledPlugin } from '../plugins/installed-plugins/installed-plugin';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';
import {
  PluginRunnerClient,
  type PluginInvocationResult,
} from '../plugin-runner-client/plugin-runner.client';
import {
  answerRefusalOf,
  pluginAnswerRefusals,
  shownPluginText,
  type PluginAnswerRefusals,
} from '../plugin-runner-client/plugin-answer-refusals';
import { FindingSourcesError } from './finding-sources.errors';
import { FindingSourcesRepository, type SyncRecord } from './finding-sources.repository';
import { readPollBatch } from './poll-batch';
import { SuppressionMatcher } from '../suppression/suppression-matcher';

/** Product of nodes that name none when the installation sets no `default_product_name`. */
export const DEFAULT_SOURCE_PRODUCT = 'Inventory';

/**
 * Polls a finding source through the runner and applies its answer (docs/plugins/finding-sources.md).
 * A poll that fails (the plugin's `poll-error`, a runner failure, a malformed answer, a target
 * project that does not exist) changes nothing and is recorded as the source's last sync with
 * its error. The source's `target_project_id` setting names the project receiving findings.
 */
@Injectable()
export class FindingSourcesService {
  private readonly logger = new Logger('FindingSources');
  private readonly refusals: PluginAnswerRefusals;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly plugins: InstalledPluginsService,
    private readonly runner: PluginRunnerClient,
    private readonly repository: FindingSourcesRepository,
    private readonly enrichment: EnrichmentScheduler,
    private readonly suppression: SuppressionMatcher,
    metrics: FindingsMetrics,
  ) {
    this.refusals = pluginAnswerRefusals(metrics.registry);
  }

  /** The enabled finding source `id`, or finding_source_not_found. */
  async source(id: string): Promise<InstalledPlugin> {
    const plugin = await this.plugins.get(id).catch(() => undefined);
    if (!plugin || !plugin.enabled || !plugin.capabilities.includes('finding_source')) {
      throw new FindingSourcesError('finding_source_not_found', { plugin_id: id });
    }
    return plugin;
  }

  /** One poll now; the record of it (also kept as the source's last sync). */
  async sync(id: string, trigger: 'manual' | 'schedule'): Promise<SyncRecord> {
    const plugin = await this.source(id);
    const startedAt = new Date();
    const base: SyncRecord = {
      installedPluginId: plugin.id,
      startedAt,
      finishedAt: startedAt,
      outcome: 'failed',
      trigger,
      errorCode: null,
      errorMessage: null,
      nodes: 0,
      findingsSeen: 0,
      findingsCreated: 0,
      findingsClosed: 0,
      nodesVanished: 0,
      reconciliationSkipped: false,
      lastSuccessAt: null,
    };
    const fail = async (code: string, message: string): Promise<SyncRecord> => {
      const record = {
        ...base,
        finishedAt: new Date(),
        // The plugin's own text (its poll-error): stored, so it passes the HTTP text rules.
        errorCode: shownPluginText(code, 64),
        errorMessage: shownPluginText(message, 2000),
      };
      await this.repository.recordSync(record);
      this.logger.warn(
        `finding source ${plugin.id}: poll failed (${record.errorCode}: ${record.errorMessage})`,
      );
      return record;
    };
    const projectId = plugin.settings['target_project_id'];
    if (typeof projectId !== 'string' || !/^[0-9a-f-]{36}$/i.test(projectId)) {
      return fail('misconfigured', 'target_project_id is not a project id');
    }
    let result: PluginInvocationResult;
    try {
      result = await this.poll(plugin, projectId);
    } catch (error) {
      return fail('runner_unavailable', (error as Error).message);
    }
    const refused = answerRefusalOf(result);
    if (refused) {
      this.refusals.count(plugin.id, refused.reason);
      return fail(refused.reason, refused.problem);
    }
    if (!result.ok) {
      const detail = result.error.detail as { tag?: unknown; val?: unknown } | undefined;
      if (result.error.code === 'plugin_error' && typeof detail?.tag === 'string') {
        return fail(detail.tag, String(detail.val ?? result.error.message));
      }
      return fail(result.error.code, result.error.message);
    }
    const defaultProduct =
      typeof plugin.settings['default_product_name'] === 'string' &&
      plugin.settings['default_product_name'].trim() !== ''
        ? plugin.settings['default_product_name'].trim()
        : DEFAULT_SOURCE_PRODUCT;
    const batch = readPollBatch(result.value, defaultProduct);
    if (!batch) {
      this.refusals.count(plugin.id, 'invalid_answer');
      return fail('invalid_answer', 'the finding source answered a malformed batch');
    }
    const scanner = plugin.catalogPluginId;
    const applied = await this.repository.applyPoll(
      plugin.id,
      projectId,
      scanner,
      batch.nodes,
      batch.findings,
      systemActor(`finding_source:${scanner}`),
      startedAt,
      await this.suppression.forPoll(projectId),
    );
    if (applied === 'project_missing') {
      return fail('misconfigured', `target project ${projectId} does not exist`);
    }
    const { createdIds, ...counts } = applied;
    const finishedAt = new Date();
    const record: SyncRecord = {
      ...base,
      finishedAt,
      outcome: 'ok',
      nodes: batch.nodes.length,
      findingsSeen: batch.findings.length,
      ...counts,
      lastSuccessAt: finishedAt,
    };
    await this.repository.recordSync(record);
    // New findings appear: every enabled enricher gets them (background jobs).
    await this.enrichment
      .findingsCreated(projectId, createdIds, `source-${plugin.id}-${startedAt.getTime()}`)
      .catch((error: unknown) =>
        this.logger.warn(
          `finding source ${plugin.id}: enrichment not queued (${(error as Error).message})`,
        ),
      );
    return record;
  }

  /** Polls every enabled source whose last poll started a period ago or more (leader task). */
  async pollDue(now: Date = new Date()): Promise<number> {
    const sources = await this.plugins.listEnabledByCapability('finding_source');
    const starts = await this.repository.lastStarts(sources.map((s) => s.id));
    const period = this.config.findingSources.pollIntervalMinutes * 60_000;
    let polled = 0;
    for (const source of sources) {
      const last = starts.get(source.id);
      if (last && now.getTime() - last.getTime() < period) continue;
      await this.sync(source.id, 'schedule').catch((error: unknown) =>
        this.logger.warn(`finding source ${source.id}: ${(error as Error).message}`),
      );
      polled += 1;
    }
    return polled;
  }

  private async poll(plugin: InstalledPlugin, projectId: string): Promise<PluginInvocationResult> {
    const { generation } = await this.plugins.ensureLoaded(plugin.id);
    const invocation = {
      context: {
        pluginId: plugin.id,
        versionDigest: plugin.artifactSha256,
        projectId,
        eventId: `sync:${randomUUID()}`,
      },
      capability: 'finding_source',
      operation: 'poll',
      payload: {},
      settings: plugin.settings,
    };
    const first = await this.runner.invoke(invocation);
    if (first.ok || first.error.code !== 'not_loaded') return first;
    await this.plugins.ensureLoaded(plugin.id, { force: true, seenGeneration: generation });
    return this.runner.invoke(invocation);
  }
}
