import { Module } from '@nestjs/common';
import { ReportQueue } from './report-queue.provider';

/**
 * The API side of the report ingestion queue (one producer connection per process): reports
 * add jobs, the jobs API reads them, the worker consumes them.
 */
@Module({ providers: [ReportQueue], exports: [ReportQueue] })
export class ReportQueueModule {}
