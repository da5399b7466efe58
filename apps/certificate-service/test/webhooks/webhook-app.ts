import { Global, Module, type ModuleMetadata } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WebhookDeliveryModule } from '../../src/modules/webhooks/webhooks.module';
import {
  WEBHOOK_DELIVERY_TUNING,
  WebhookDeliveryWorker,
  type DeliveryTuning,
} from '../../src/modules/webhooks/webhook-delivery.worker';
import { startEnrollApp } from '../fixtures/enroll';
import { bearer, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

export const TEST_WEBHOOK_KEY = '77'.repeat(32);

/** Loopback receivers allowed, as an administrator would allow an internal host. */
export const LOOPBACK_EGRESS = {
  CERTSVC_WEBHOOK_EGRESS_ALLOW_HTTP: 'true',
  CERTSVC_WEBHOOK_EGRESS_ALLOW_LOCAL_DIAL: 'true',
  CERTSVC_WEBHOOK_EGRESS_ALLOWLIST: '127.0.0.0/8',
};

/**
 * The API with webhooks on and the worker's delivery side mounted in the same process, so a
 * test drives `WebhookDeliveryWorker.drain()` itself (retries 1 ms apart, short lease).
 */
export function startWebhookApp(
  options: {
    env?: Record<string, string | undefined>;
    tuning?: Partial<DeliveryTuning>;
    imports?: ModuleMetadata['imports'];
  } = {},
): Promise<TestApp> {
  @Global()
  @Module({
    providers: [
      {
        provide: WEBHOOK_DELIVERY_TUNING,
        useValue: { retryBaseMs: 1, leaseMs: 500, ...options.tuning },
      },
    ],
    exports: [WEBHOOK_DELIVERY_TUNING],
  })
  class TuningModule {}
  return startEnrollApp({
    env: {
      CERTSVC_WEBHOOKS_ENABLED: 'true',
      CERTSVC_WEBHOOK_ENC_KEY: TEST_WEBHOOK_KEY,
      CERTSVC_WEBHOOK_EGRESS_TIMEOUT_MS: '1000',
      CERTSVC_WEBHOOK_MAX_ATTEMPTS: '4',
      ...LOOPBACK_EGRESS,
      ...options.env,
    },
    extraImports: [TuningModule, WebhookDeliveryModule, ...(options.imports ?? [])],
  });
}

export function deliveryWorker(t: TestApp): WebhookDeliveryWorker {
  return t.app.get(WebhookDeliveryWorker);
}

/** Drains until `done()` holds (retries are due a few ms apart). */
export async function drainUntil(
  t: TestApp,
  done: () => boolean | Promise<boolean>,
  rounds = 200,
): Promise<void> {
  const worker = deliveryWorker(t);
  for (let i = 0; i < rounds; i++) {
    await worker.drain();
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  throw new Error('condition not reached while draining the outbox');
}

export async function createEndpoint(
  t: TestApp,
  admin: TestUser,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string }> {
  const res = await t.http
    .post('/api/v1/admin/webhooks')
    .set(...bearer(admin.accessToken))
    .send(body)
    .expect(201);
  return res.body as { id: string; secret: string };
}

export function deliveryRows(t: TestApp, where = 'true', params: unknown[] = []) {
  return t.app.get(DataSource).query(
    `SELECT id, endpoint_id, event_type, status, attempts, last_response_code, last_error, payload
       FROM webhook_deliveries WHERE ${where} ORDER BY created_at, id`,
    params,
  ) as Promise<
    {
      id: string;
      endpoint_id: string;
      event_type: string;
      status: string;
      attempts: number;
      last_response_code: number | null;
      last_error: string | null;
      payload: Record<string, unknown>;
    }[]
  >;
}
