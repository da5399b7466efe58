import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookHttp } from './webhook-http';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookOutbox } from './webhook-outbox';
import { WebhookRetention } from './webhook-retention';
import { WebhooksController } from './webhooks.controller';
import { WebhooksSwitch } from './webhooks-switch';
import { WebhooksService } from './webhooks.service';

/**
 * What the event owners import: the outbox (`WebhookOutbox.enqueue(em, events)` inside their
 * transaction) and the guarded, signed client (the corp-ownership query).
 */
@Module({
  providers: [WebhookOutbox, WebhookHttp, WebhookMetrics],
  exports: [WebhookOutbox, WebhookHttp, WebhookMetrics],
})
export class WebhookOutboxModule {}

/** Webhook endpoints and their delivery log (admin routes). */
@Module({
  imports: [AuditModule, WebhookOutboxModule],
  controllers: [WebhooksController],
  providers: [
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhooksService,
    WebhooksSwitch,
  ],
  exports: [WebhooksService],
})
export class WebhooksModule {}

/** The worker's side: delivery of the outbox and its retention purge. */
@Module({
  imports: [WebhookOutboxModule],
  providers: [
    WebhookEndpointsRepository,
    WebhookDeliveriesRepository,
    WebhookDeliveryWorker,
    WebhookRetention,
  ],
  exports: [WebhookDeliveryWorker, WebhookRetention],
})
export class WebhookDeliveryModule {}
