import { Module } from '@nestjs/common';
import { NotificationQueueModule } from '../../modules/notification-queue/notification-queue.module';
import { ReportQueueModule } from '../../modules/report-queue/report-queue.module';
import { BusinessMetricsCollector } from './business-metrics.collector';
import { BusinessMetricsRepository } from './business-metrics.repository';

/** The business metrics collector: imported by the API's AppModule only, never the worker. */
@Module({
  imports: [ReportQueueModule, NotificationQueueModule],
  providers: [BusinessMetricsRepository, BusinessMetricsCollector],
  exports: [BusinessMetricsCollector],
})
export class BusinessMetricsModule {}
