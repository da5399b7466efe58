import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { createRedisConnection, tracedJobConsumer } from '@platform/queue';
import { Tracing } from '@platform/tracing';
import { Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
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
  private connection: Redis | undefined;
  private worker: Worker | undefined;

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
    this.connection = createRedisConnection(this.config.redisUrl, {
      name: 'findings-worker-notifications',
      role: 'worker',
      onError: (error) => this.logger.warn(`redis: ${error.message}`),
    });
    const consume = tracedJobConsumer(this.tracing, NOTIFICATION_QUEUE, (job) => this.process(job));
    this.worker = new Worker(NOTIFICATION_QUEUE, consume, {
      connection: this.connection,
      prefix: this.config.reports.queuePrefix,
      concurrency: this.config.notifications.concurrency,
      lockDuration: NOTIFICATION_LOCK_MS,
      maxStalledCount: 10,
    });
    this.worker.on('error', (error) => this.logger.warn(`worker: ${error.message}`));
    this.worker.on('failed', (job, error) =>
      this.logger.warn(
        `notification job ${job?.id ?? '?'} (${job?.name ?? '?'}) failed: ${error.message.slice(0, 500)}`,
      ),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    this.connection?.disconnect();
  }

  private async process(job: Job): Promise<unknown> {
    if (job.name === SLA_DEADLINE_NOTIFICATION.name) {
      const data = parse(() => SLA_DEADLINE_NOTIFICATION.parse(job.data));
      return this.deadlines.consume(String(job.id), data);
    }
    if (job.name === NOTIFICATION_DELIVER.name) {
      const { deliveryId } = parse(() => NOTIFICATION_DELIVER.parse(job.data));
      return { result: await this.deliveries.attempt(deliveryId) };
    }
    throw new UnrecoverableError(`invalid_job_payload: unknown job ${job.name}`);
  }
}

function parse<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new UnrecoverableError(`invalid_job_payload: ${(error as Error).message}`);
  }
}
