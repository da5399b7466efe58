import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import {
  WebhookDeliveriesRepository,
  type AttemptResult,
  type ClaimedDelivery,
} from './webhook-deliveries.repository';
import type { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { runDrain } from './delivery-run';
import { WebhookHttp } from './webhook-http';
import { WebhookMetrics } from './webhook-metrics';
import { endpointSecretLabel, openSecret } from './webhook-secret';
import { signedHeaders } from './webhook-signing';
import { RETRY_BASE_MS, retryDelayMs } from './webhook-backoff';

/** How one drain runs; the defaults suit production, tests shorten the lease. */
export interface DeliveryTuning {
  /** Rows claimed per batch. */
  batchSize: number;
  /** Calls in flight at once, all endpoints together. */
  concurrency: number;
  /** Calls in flight at once to one endpoint. */
  perEndpointConcurrency: number;
  /** A claimed row is due again after this long if its attempt was never recorded. */
  leaseMs: number;
  /** A drain stops claiming after this long (the next tick continues). */
  maxDrainMs: number;
  /** First retry wait (doubles per attempt, jittered). */
  retryBaseMs: number;
}

export const WEBHOOK_DELIVERY_TUNING = Symbol('WEBHOOK_DELIVERY_TUNING');

/** Where one endpoint's deliveries go during a drain; `secret` undefined: cannot be opened. */
interface Target {
  url: string;
  secret: string | undefined;
}

export function defaultTuning(config: CertsvcConfig): DeliveryTuning {
  const batchSize = 200;
  const perEndpointConcurrency = 16;
  return {
    batchSize,
    concurrency: 64,
    perEndpointConcurrency,
    // Longer than a live worker can hold a claimed row (a drain holds at most two batches, all
    // of them possibly for one slow endpoint, each call at most the guard's deadline), so only
    // a dead worker's claim ever expires.
    leaseMs:
      Math.ceil((2 * batchSize) / perEndpointConcurrency) * config.webhooks.egress.timeoutMs +
      5_000,
    maxDrainMs: Math.max(config.webhooks.pollSeconds * 1000, 5_000),
    retryBaseMs: RETRY_BASE_MS,
  };
}

/**
 * The outbox's sender. `drain()` claims due rows in batches (`FOR UPDATE SKIP LOCKED`: N worker
 * replicas never send the same row at once), POSTs each signed body through the
 * request-forgery guard with bounded concurrency per endpoint (a pipeline, `delivery-run.ts`),
 * and records attempts in two statements per batch of results: 2xx delivered; anything else
 * retried with exponential back-off and jitter until `CERTSVC_WEBHOOK_MAX_ATTEMPTS`, then
 * failed.
 */
@Injectable()
export class WebhookDeliveryWorker {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly tuning: DeliveryTuning;

  constructor(
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly http: WebhookHttp,
    private readonly metrics: WebhookMetrics,
    @Optional() @Inject(WEBHOOK_DELIVERY_TUNING) tuning: Partial<DeliveryTuning> = {},
  ) {
    this.tuning = { ...defaultTuning(config), ...(tuning ?? {}) };
  }

  /** Sends what is due until nothing is left or the drain's time is up; the attempts made. */
  async drain(): Promise<number> {
    const endpoints = new Map<string, Target | null>();
    return runDrain(
      {
        claim: (limit) => this.deliveries.claim(limit, this.tuning.leaseMs),
        prepare: async (batch) => {
          const missing = [...new Set(batch.map((d) => d.endpointId))].filter(
            (id) => !endpoints.has(id),
          );
          const rows = await this.endpoints.byIds(missing);
          for (const id of missing) endpoints.set(id, this.target(rows.get(id)));
        },
        attempt: (delivery) => this.attempt(delivery, endpoints.get(delivery.endpointId) ?? null),
        record: async (results) => {
          await this.deliveries.record(results);
          for (const r of results) this.metrics.deliveries.inc({ outcome: r.outcome });
        },
      },
      {
        batchSize: this.tuning.batchSize,
        concurrency: this.tuning.concurrency,
        perEndpointConcurrency: this.tuning.perEndpointConcurrency,
        claimUntil: Date.now() + this.tuning.maxDrainMs,
      },
    );
  }

  /** The endpoint's URL and opened secret (once per drain), or why it cannot be sent to. */
  private target(endpoint: WebhookEndpointEntity | undefined): Target | null {
    if (!endpoint) return null;
    const key = this.config.webhooks.encryptionKey;
    const secret = key
      ? openSecret(endpoint.secretSealed, key, endpointSecretLabel(endpoint.id))
      : undefined;
    return { url: endpoint.url, secret };
  }

  private async attempt(delivery: ClaimedDelivery, target: Target | null): Promise<AttemptResult> {
    if (!target) return this.failure(delivery, null, 'endpoint_missing');
    if (target.secret === undefined) {
      return this.failure(
        delivery,
        null,
        'secret_unreadable: the endpoint secret cannot be decrypted with CERTSVC_WEBHOOK_ENC_KEY',
      );
    }
    const headers = signedHeaders({
      secret: target.secret,
      body: delivery.body,
      event: delivery.eventType,
      deliveryId: delivery.id,
    });
    const outcome = await this.http.post(target.url, delivery.body, headers, {
      caller: 'webhook-delivery',
    });
    if (!outcome.ok) return this.failure(delivery, null, `${outcome.reason}: ${outcome.message}`);
    if (outcome.status >= 200 && outcome.status < 300) {
      return {
        id: delivery.id,
        attempts: delivery.attempts,
        outcome: 'delivered',
        code: outcome.status,
      };
    }
    return this.failure(delivery, outcome.status, `http_${outcome.status}`);
  }

  private failure(delivery: ClaimedDelivery, code: number | null, error: string): AttemptResult {
    const attempt = delivery.attempts + 1;
    const exhausted = attempt >= this.config.webhooks.maxAttempts;
    if (exhausted) {
      this.logger.warn(
        { delivery: delivery.id, endpoint: delivery.endpointId, attempts: attempt, error },
        'webhook delivery failed for good',
      );
    }
    return {
      id: delivery.id,
      attempts: delivery.attempts,
      outcome: exhausted ? 'failed' : 'retry',
      code,
      error: error.slice(0, 1000),
      nextAttemptAt: new Date(Date.now() + retryDelayMs(attempt, this.tuning.retryBaseMs)),
    };
  }
}
