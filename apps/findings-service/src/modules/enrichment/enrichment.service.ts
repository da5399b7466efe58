import { Injectable, Logger } from '@nestjs/common';
import { FindingsMetrics } from '../../app/metrics/findings-metrics';
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
import { EnrichmentError } from './enrichment.errors';
import {
  EnrichmentRepository,
  type EnrichableFinding,
  type EnrichmentResult,
} from './enrichment.repository';
import { readEnrichmentTags } from './enrichment-tags';

/** Findings whose tags are written together (one set-based write per chunk). */
export const ENRICHMENT_WRITE_CHUNK = 500;

/** Failures listed one by one in an outcome (the counts cover them all). */
export const MAX_LISTED_FAILURES = 100;
/**
 * Findings in a row an enricher may fail on the deadline or a trap before the run stops
 * calling it: the rest of the batch fails as `not_attempted` (their tags unchanged), so a
 * looping enricher costs its job 3 deadlines, not one per finding (docs/plugins/fairness.md).
 */
export const STOP_AFTER_DETERMINISTIC_IN_A_ROW = 3;
/** Runner failures that calling again would only repeat (the plugin looped or trapped). */
const DETERMINISTIC_CODES: readonly string[] = ['deadline_exceeded', 'trap'];

/** Length of a failure message kept in an outcome and in logs. */
const MAX_FAILURE_MESSAGE = 500;

/** Why one finding was not enriched (its tags are unchanged). */
export interface FindingFailure {
  findingId: string;
  /** `invalid_answer`, `answer_too_large`, the runner's code (`plugin_error`, `trap`, ...) or `write_failed`. */
  code: string;
  message: string;
}

export interface EnrichmentOutcome {
  /** Findings whose tags were replaced by this enricher's answer. */
  enriched: number;
  /** Findings the enricher failed on (their tags are unchanged). */
  failed: number;
  /** Findings asked for that no longer exist or are in another project. */
  missing: number;
  /** The first failure: code and message (scrubbed of the plugin's secrets). */
  firstError?: { code: string; message: string };
  /** Failed findings by code. */
  failedBy?: Record<string, number>;
  /** The failed findings with their code and message (the first MAX_LISTED_FAILURES). */
  failures?: FindingFailure[];
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
  private readonly refusals: PluginAnswerRefusals;

  constructor(
    private readonly plugins: InstalledPluginsService,
    private readonly runner: PluginRunnerClient,
    private readonly repository: EnrichmentRepository,
    metrics: FindingsMetrics,
  ) {
    this.refusals = pluginAnswerRefusals(metrics.registry);
  }

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
    const fail = (findingId: string, code: string, message: string) => {
      const failure = { findingId, code, message: shownPluginText(message, MAX_FAILURE_MESSAGE) };
      outcome.failed += 1;
      outcome.firstError ??= { code, message: failure.message };
      outcome.failedBy = { ...outcome.failedBy, [code]: (outcome.failedBy?.[code] ?? 0) + 1 };
      outcome.failures ??= [];
      if (outcome.failures.length < MAX_LISTED_FAILURES) outcome.failures.push(failure);
    };
    let pending: EnrichmentResult[] = [];
    const flush = async () => {
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      outcome.enriched += await this.write(plugin.id, batch, fail);
    };
    let inARow = 0;
    for (const finding of findings) {
      if (inARow >= STOP_AFTER_DETERMINISTIC_IN_A_ROW) {
        fail(
          finding.id,
          'not_attempted',
          `not sent: the enricher failed ${inARow} findings in a row on the deadline or a trap`,
        );
        continue;
      }
      const result = await this.invoke(plugin, projectId, eventId, finding);
      const answer = this.readAnswer(plugin.id, result);
      inARow = 'code' in answer && DETERMINISTIC_CODES.includes(answer.code) ? inARow + 1 : 0;
      if ('tags' in answer) {
        pending.push({ findingId: finding.id, tags: answer.tags });
        if (pending.length >= ENRICHMENT_WRITE_CHUNK) await flush();
      } else {
        fail(finding.id, answer.code, answer.message);
      }
    }
    await flush();
    if (outcome.failed > 0) {
      this.logger.warn(
        `enricher ${plugin.id}, event ${eventId}: ${outcome.failed} of ${findings.length} findings failed (${Object.entries(
          outcome.failedBy ?? {},
        )
          .map(([code, n]) => `${code}: ${n}`)
          .join(', ')}; first: ${outcome.firstError?.code}: ${outcome.firstError?.message})`,
      );
    }
    return outcome;
  }

  /**
   * The tags of one answer, or why the finding failed: a runner failure keeps its code; an
   * answer the service refuses (`invalid_answer`, `answer_too_large`) is counted in
   * findsvc_plugin_answers_refused_total.
   */
  private readAnswer(
    pluginId: string,
    result: PluginInvocationResult,
  ): { tags: EnrichmentResult['tags'] } | { code: string; message: string } {
    const refused = answerRefusalOf(result);
    if (refused) {
      this.refusals.count(pluginId, refused.reason);
      return { code: refused.reason, message: refused.problem };
    }
    if (!result.ok) return { code: result.error.code, message: result.error.message };
    const read = readEnrichmentTags(result.value);
    if ('tags' in read) return read;
    this.refusals.count(pluginId, 'invalid_answer');
    return { code: 'invalid_answer', message: read.problem };
  }

  /**
   * Writes one chunk set-based; when the chunk's write fails, each finding is written alone so
   * one finding the database refuses does not cost the others their tags. Returns the findings
   * written.
   */
  private async write(
    pluginId: string,
    batch: EnrichmentResult[],
    fail: (findingId: string, code: string, message: string) => void,
  ): Promise<number> {
    try {
      await this.repository.replaceTags(pluginId, batch, new Date());
      return batch.length;
    } catch (error) {
      if (batch.length === 1) {
        fail(batch[0]?.findingId ?? '', 'write_failed', (error as Error).message);
        return 0;
      }
      let written = 0;
      for (const one of batch) written += await this.write(pluginId, [one], fail);
      return written;
    }
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
