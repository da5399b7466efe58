import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { InvalidJobPayloadError, QueueConsumer } from '@platform/queue';
import { Tracing } from '@platform/tracing';
import type { Job } from 'bullmq';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { notificationWarnings } from '../../app/config/notifications-config';
import { NOTIFICATION_DELIVER } from '../notification-queue/notification-deliver.job';
import {
  NOTIFICATION_QUEUE,
  SLA_DEADLINE_NOTIFICATION,
} from '../notification-queue/sla-deadline-notification.job';
import { NotificationDeliveryService } from './notification-delivery.service';
import { SlaDeadlineNotifications } from './sla-deadline-notifications.service';

/** BullMQ's lock of a running job (renewed while it runs); above the delivery lease. */
const NOTIFICATION_LOCK_MS = 60_000;

/**
 * The consumer of the `notifications` queue on every worker replica (NOTIFICATION_CONCURRENCY
 * jobs at a time): `sla-deadline` jobs become sealed notifications, `deliver` jobs run one
 * delivery attempt. A payload that does not validate ends its job (unrecoverable).
 */
@Injectable()
export class NotificationProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('NotificationProcessor');
  private consumer: QueueConsumer | undefined;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly deliveries: NotificationDeliveryService,
    private readonly deadlines: SlaDeadlineNotifications,
    private readonly tracing: Tracing,
  ) {}

  onApplicationBootstrap(): void {
    for (const warning of notificationWarnings(this.config.notifications)) {
      this.logger.warn(warning);
    }
    this.consumer = new QueueConsumer({
      redisUrl: this.config.redisUrl,
      prefix: this.config.reports.queuePrefix,
      queue: NOTIFICATION_QUEUE,
      connectionName: 'findings-worker-notifications',
      tracing: this.tracing,
      logger: this.logger,
      worker: {
        concurrency: this.config.notifications.concurrency,
        lockDuration: NOTIFICATION_LOCK_MS,
        maxStalledCount: 10,
      },
      process: (job) => this.process(job),
    });
    this.consumer.worker.on('failed', (job, error) =>
      this.logger.warn(
        `notification job ${job?.id ?? '?'} (${job?.name ?? '?'}) failed: ${error.message.slice(0, 500)}`,
      ),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
  }

  private async process(job: Job): Promise<unknown> {
    if (job.name === SLA_DEADLINE_NOTIFICATION.name) {
      const data = SLA_DEADLINE_NOTIFICATION.parse(job.data);
      return this.deadlines.consume(String(job.id), data);
    }
    if (job.name === NOTIFICATION_DELIVER.name) {
      const { deliveryId } = NOTIFICATION_DELIVER.parse(job.data);
      return { result: await this.deliveries.attempt(deliveryId) };
    }
    throw new InvalidJobPayloadError(job.name, 'unknown job name');
  }
}
