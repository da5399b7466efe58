import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createRedisConnection } from '@platform/queue';
import type { Redis } from 'ioredis';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';

/** How long a read waits for the first connection to Redis. */
const READY_TIMEOUT_MS = 1_500;

export const ENRICHER_EXECUTION_STATES = ['active', 'backed_off', 'suspended'] as const;
export type EnricherExecutionStateName = (typeof ENRICHER_EXECUTION_STATES)[number];

/**
 * Whether the background enrichment runs an enricher (docs/plugins/fairness.md):
 * `active`; `backed_off` until `until` after jobs kept running past the deadline; `suspended`
 * after too many back-offs in a row, until an administrator changes the installation.
 */
export interface EnricherExecutionState {
  state: EnricherExecutionStateName;
  /** Why it is backed off or suspended (null when active). */
  reason: string | null;
  /** When the state was entered (null for an enricher never held back). */
  since: Date | null;
  /** End of a back-off (null otherwise). */
  until: Date | null;
  /** Jobs in a row that failed on the deadline or a trap since the last success or back-off. */
  strikes: number;
  /** Back-offs in a row since the last success. */
  backOffs: number;
}

export const ACTIVE: EnricherExecutionState = {
  state: 'active',
  reason: null,
  since: null,
  until: null,
  strikes: 0,
  backOffs: 0,
};

/** Redis could not be read or written. */
export class ExecutionStateUnavailable extends Error {}

/**
 * The execution state of each enricher, in Redis (one hash per installation), shared by every
 * worker replica and read by the API. A state older than the installation's last change
 * (`updated_at`: settings saved, version changed, disabled and enabled again) is over: an
 * administrator who changed the plugin lifts its suspension.
 */
@Injectable()
export class EnricherExecutionStates implements OnApplicationShutdown {
  private connection: Redis | undefined;

  constructor(@Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig) {}

  /** The enricher's state; `changedAt` is its installation's `updated_at`. */
  async get(pluginId: string, changedAt?: Date): Promise<EnricherExecutionState> {
    const redis = await this.ready();
    const raw = await redis.hgetall(this.key(pluginId));
    const state = parse(raw);
    if (state.state !== 'active' && changedAt && state.since && changedAt > state.since) {
      await redis.del(this.key(pluginId));
      return ACTIVE;
    }
    if (state.state === 'backed_off' && state.until && state.until.getTime() <= Date.now()) {
      // The back-off is over: active again, its back-offs still counted until a success.
      return { ...state, state: 'active', reason: null, until: null };
    }
    return state;
  }

  async set(pluginId: string, state: EnricherExecutionState): Promise<void> {
    const redis = await this.ready();
    await redis.hset(this.key(pluginId), {
      state: state.state,
      reason: state.reason ?? '',
      since: state.since?.toISOString() ?? '',
      until: state.until?.toISOString() ?? '',
      strikes: String(state.strikes),
      backOffs: String(state.backOffs),
    });
  }

  /** Back to `active` with no strikes (a job that enriched something). */
  async clear(pluginId: string): Promise<void> {
    const redis = await this.ready();
    await redis.del(this.key(pluginId));
  }

  private key(pluginId: string): string {
    return `${this.config.reports.queuePrefix}:enricher-execution:${pluginId}`;
  }

  private async ready(): Promise<Redis> {
    const redis = (this.connection ??= createRedisConnection(this.config.redisUrl, {
      name: `findings-${this.config.role}-enricher-execution`,
      role: 'producer',
    }));
    if (redis.status === 'ready') return redis;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        reject(
          new ExecutionStateUnavailable(`not connected to Redis within ${READY_TIMEOUT_MS} ms`),
        );
      }, READY_TIMEOUT_MS);
      const onReady = (): void => {
        clearTimeout(timer);
        resolve();
      };
      redis.once('ready', onReady);
    });
    return redis;
  }

  onApplicationShutdown(): void {
    this.connection?.disconnect();
  }
}

function parse(raw: Record<string, string>): EnricherExecutionState {
  const state = ENRICHER_EXECUTION_STATES.find((s) => s === raw['state']);
  if (!state) return ACTIVE;
  const date = (value: string | undefined) => (value ? new Date(value) : null);
  return {
    state,
    reason: raw['reason'] || null,
    since: date(raw['since']),
    until: date(raw['until']),
    strikes: Number(raw['strikes'] ?? 0) || 0,
    backOffs: Number(raw['backOffs'] ?? 0) || 0,
  };
}
