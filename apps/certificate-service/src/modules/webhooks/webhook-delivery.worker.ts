import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import {
  WebhookDeliveriesRepository,
  type AttemptResult,
  type ClaimedDelivery,
} from './webhook-deliveries.repository';
import type { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
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

export function defaultTuning(config: CertsvcConfig): DeliveryTuning {
  const batchSize = 200;
  const perEndpointConcurrency = 16;
  return {
    batchSize,
    concurrency: 64,
    perEndpointConcurrency,
    // Longer than a live worker can hold a batch (all of it for one slow endpoint, each call at
    // most the guard's deadline), so only a dead worker's claim ever expires.
    leaseMs:
      Math.ceil(batchSize / perEndpointConcurrency) * config.webhooks.egress.timeoutMs + 5_000,
    maxDrainMs: Math.max(config.webhooks.pollSeconds * 1000, 5_000),
    retryBaseMs: RETRY_BASE_MS,
  };
}

/**
 * The outbox's sender. `drain()` claims due rows batch after batch (`FOR UPDATE SKIP LOCKED`:
 * N worker replicas never send the same row at once), POSTs each signed body through the
 * request-forgery guard with bounded concurrency per endpoint, and records the attempts of a
 * batch in two statements: 2xx delivered; anything else retried with exponential back-off and
 * jitter until `CERTSVC_WEBHOOK_MAX_ATTEMPTS`, then failed.
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
    const started = Date.now();
    let attempts = 0;
    while (Date.now() - started < this.tuning.maxDrainMs) {
      const batch = await this.deliveries.claim(this.tuning.batchSize, this.tuning.leaseMs);
      if (batch.length === 0) break;
      attempts += await this.sendBatch(batch);
      if (batch.length < this.tuning.batchSize) break;
    }
    return attempts;
  }

  private async sendBatch(batch: readonly ClaimedDelivery[]): Promise<number> {
    const endpoints = await this.endpoints.byIds([...new Set(batch.map((d) => d.endpointId))]);
    const results: AttemptResult[] = [];
    const inFlight = new Map<string, number>();
    const queue = [...batch];
    const worker = async (): Promise<void> => {
      for (;;) {
        const index = queue.findIndex(
          (d) => (inFlight.get(d.endpointId) ?? 0) < this.tuning.perEndpointConcurrency,
        );
        if (index < 0) {
          if (queue.length === 0) return;
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        const [delivery] = queue.splice(index, 1);
        inFlight.set(delivery.endpointId, (inFlight.get(delivery.endpointId) ?? 0) + 1);
        try {
          results.push(await this.attempt(delivery, endpoints.get(delivery.endpointId)));
        } finally {
          inFlight.set(delivery.endpointId, (inFlight.get(delivery.endpointId) ?? 1) - 1);
        }
      }
    };
    const workers = Math.min(this.tuning.concurrency, batch.length);
    await Promise.all(Array.from({ length: workers }, worker));
    await this.deliveries.record(results);
    for (const r of results) this.metrics.deliveries.inc({ outcome: r.outcome });
    return results.length;
  }

  private async attempt(
    delivery: ClaimedDelivery,
    endpoint: WebhookEndpointEntity | undefined,
  ): Promise<AttemptResult> {
    const key = this.config.webhooks.encryptionKey;
    const secret =
      endpoint && key
        ? openSecret(endpoint.secretSealed, key, endpointSecretLabel(endpoint.id))
        : undefined;
    if (!endpoint || secret === undefined) {
      return this.failure(
        delivery,
        null,
        endpoint
          ? 'secret_unreadable: the endpoint secret cannot be decrypted with CERTSVC_WEBHOOK_ENC_KEY'
          : 'endpoint_missing',
      );
    }
    const headers = signedHeaders({
      secret,
      body: delivery.body,
      event: delivery.eventType,
      deliveryId: delivery.id,
    });
    const outcome = await this.http.post(endpoint.url, delivery.body, headers, {
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
