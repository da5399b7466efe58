import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createRedisConnection } from '@platform/queue';
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';
import { type EnricherExecutionState, EnricherExecutionStates } from './enricher-execution-state';

/** How long a job's token lasts without renewal (renewed every third of it while the job runs). */
const TOKEN_LEASE_MS = 60_000;
/** A job that found its enricher's share taken waits this long (plus jitter) before trying again. */
const TOKEN_RETRY_MS = 200;
/** Longest back-off (each one doubles the previous). */
const MAX_BACK_OFF_MS = 3_600_000;

/** Runner failures that another attempt would only repeat: the plugin looped or trapped. */
export const DETERMINISTIC_FAILURES: readonly string[] = ['deadline_exceeded', 'trap'];

/** The parts of an enrichment outcome fairness reads. */
export interface OutcomeCounts {
  enriched: number;
  failed: number;
  firstError?: { code: string; message: string };
  /** Failed findings by code (when the outcome counts them). */
  failedBy?: Record<string, number>;
}

function failureCodes(outcome: OutcomeCounts): Record<string, number> {
  if (outcome.failedBy && Object.keys(outcome.failedBy).length > 0) return outcome.failedBy;
  return outcome.firstError ? { [outcome.firstError.code]: outcome.failed } : {};
}

/**
 * Every finding failed, and only on the deadline or a trap (the rest `not_attempted` after
 * them, EnrichmentService's stop): retrying cannot help.
 */
export function isDeterministicFailure(outcome: OutcomeCounts): boolean {
  if (outcome.enriched > 0 || outcome.failed === 0) return false;
  const codes = Object.keys(failureCodes(outcome));
  return (
    codes.some((code) => DETERMINISTIC_FAILURES.includes(code)) &&
    codes.every((code) => DETERMINISTIC_FAILURES.includes(code) || code === 'not_attempted')
  );
}

/**
 * The error a job whose every finding failed ends with: unrecoverable (no further attempt) when
 * the failures are deterministic, an ordinary error (retried with back-off) otherwise.
 */
export function enrichmentJobFailure(outcome: OutcomeCounts, message: string): Error {
  return isDeterministicFailure(outcome) ? new UnrecoverableError(message) : new Error(message);
}

// Takes one of `limit` tokens of a key (a sorted set of holders scored by lease end, in Redis
// server time), or renews the caller's. 1 = held, 0 = all taken.
const TAKE_TOKEN = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local lease = tonumber(ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], lease)
  return 1
end
return 0`;

/**
 * Fairness between enrichers in the worker (docs/plugins/fairness.md). The
 * enrichment queue is shared; each enricher gets a share of it:
 * - **a share**: at most `workers` (PLUGIN_RUNNER_PER_PLUGIN_LIMIT − 1) jobs of one enricher
 *   run at once across every worker replica — a token in Redis per running job. A job that
 *   finds the share taken goes back to the queue (delayed, not an attempt) and frees its slot
 *   for other enrichers; each process runs ENRICHMENT_CONCURRENCY jobs of all enrichers.
 * - **back-off and suspension**: a job whose every finding failed on the deadline or a trap
 *   is a strike; ENRICHMENT_DEADLINE_STRIKES strikes in a row back the enricher off
 *   (ENRICHMENT_BACKOFF_SECONDS, doubling): its jobs wait until then. After
 *   ENRICHMENT_SUSPEND_AFTER_BACKOFFS back-offs in a row it is suspended: its jobs fail at
 *   once (`plugin_suspended`) until an administrator changes the installation. A job that
 *   enriched something clears it all. The state is shown at
 *   GET /api/v1/admin/installed-plugins/{id}/execution.
 */
@Injectable()
export class EnrichmentFairness implements OnApplicationShutdown {
  private readonly logger = new Logger('EnrichmentFairness');
  private connection: Redis | undefined;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly states: EnricherExecutionStates,
    private readonly plugins: InstalledPluginsService,
  ) {}

  /**
   * Runs `work` (the job's enrichment) when its enricher may run now; otherwise the job is
   * moved back to the queue (BullMQ DelayedError) or, for a suspended enricher, fails
   * unrecoverably. Records the outcome for back-off and suspension.
   */
  async run<T extends OutcomeCounts>(
    job: Job,
    pluginId: string,
    work: () => Promise<T>,
  ): Promise<T> {
    const changedAt = await this.plugins
      .get(pluginId)
      .then((p) => p.updatedAt)
      .catch(() => undefined);
    const state = await this.states.get(pluginId, changedAt);
    if (state.state === 'suspended') {
      throw new UnrecoverableError(`plugin_suspended: ${state.reason ?? ''}`);
    }
    if (state.state === 'backed_off' && state.until && state.until.getTime() > Date.now()) {
      await this.delay(job, state.until.getTime());
    }
    const member = `${job.id ?? ''}`;
    if (!(await this.takeToken(pluginId, member))) {
      await this.delay(
        job,
        Date.now() + TOKEN_RETRY_MS + Math.floor(Math.random() * TOKEN_RETRY_MS),
      );
    }
    const renew = setInterval(
      () => void this.takeToken(pluginId, member).catch(() => undefined),
      TOKEN_LEASE_MS / 3,
    );
    try {
      const outcome = await work();
      await this.record(pluginId, state, outcome).catch((error: Error) =>
        this.logger.warn(`enricher ${pluginId}: execution state not recorded: ${error.message}`),
      );
      return outcome;
    } finally {
      clearInterval(renew);
      await this.redis()
        .zrem(this.tokenKey(pluginId), member)
        .catch(() => undefined);
    }
  }

  /** Strikes, back-off and suspension from one job's outcome. */
  private async record(
    pluginId: string,
    before: EnricherExecutionState,
    outcome: OutcomeCounts,
  ): Promise<void> {
    if (outcome.enriched > 0) {
      if (before.strikes > 0 || before.backOffs > 0 || before.state !== 'active') {
        await this.states.clear(pluginId);
      }
      return;
    }
    const codes = failureCodes(outcome);
    const deterministic = DETERMINISTIC_FAILURES.filter((code) => (codes[code] ?? 0) > 0);
    if (deterministic.length === 0) return;
    const { deadlineStrikes, backOffSeconds, suspendAfterBackOffs } = this.config.enrichment;
    const current = await this.states.get(pluginId);
    const strikes = current.strikes + 1;
    const now = new Date();
    if (strikes < deadlineStrikes) {
      await this.states.set(pluginId, { ...current, strikes });
      return;
    }
    const backOffs = current.backOffs + 1;
    const what = `${strikes} enrichment jobs in a row failed on ${deterministic.join(' and ')} with nothing enriched`;
    if (backOffs > suspendAfterBackOffs) {
      const reason = `suspended after ${suspendAfterBackOffs} back-offs: ${what}; change the installation (settings, version, or disable and enable) to run it again`;
      await this.states.set(pluginId, {
        state: 'suspended',
        reason,
        since: now,
        until: null,
        strikes: 0,
        backOffs,
      });
      this.logger.warn(`enricher ${pluginId}: ${reason}`);
      return;
    }
    const ms = Math.min(backOffSeconds * 1000 * 2 ** (backOffs - 1), MAX_BACK_OFF_MS);
    const until = new Date(now.getTime() + ms);
    const reason = `backed off ${Math.round(ms / 1000)} s (back-off ${backOffs}): ${what}`;
    await this.states.set(pluginId, {
      state: 'backed_off',
      reason,
      since: now,
      until,
      strikes: 0,
      backOffs,
    });
    this.logger.warn(`enricher ${pluginId}: ${reason}`);
  }

  /** Moves the running job back to the queue until `timestamp` (not counted as an attempt). */
  private async delay(job: Job, timestamp: number): Promise<never> {
    await job.moveToDelayed(timestamp, job.token);
    throw new DelayedError();
  }

  private async takeToken(pluginId: string, member: string): Promise<boolean> {
    const held = await this.redis().eval(
      TAKE_TOKEN,
      1,
      this.tokenKey(pluginId),
      TOKEN_LEASE_MS,
      this.config.enrichment.workers,
      member,
    );
    return held === 1;
  }

  private tokenKey(pluginId: string): string {
    return `${this.config.reports.queuePrefix}:enricher-tokens:${pluginId}`;
  }

  private redis(): Redis {
    return (this.connection ??= createRedisConnection(this.config.redisUrl, {
      name: 'findings-worker-enrichment-fairness',
      role: 'worker',
      onError: (error) => this.logger.warn(`redis: ${error.message}`),
    }));
  }

  onApplicationShutdown(): void {
    this.connection?.disconnect();
  }
}
