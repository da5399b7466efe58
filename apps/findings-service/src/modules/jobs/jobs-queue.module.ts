import { Module } from '@nestjs/common';
import { ReportQueue } from './report-queue.provider';

/** The API side of the ingestion queue (one producer connection per process). */
@Module({ providers: [ReportQueue], exports: [ReportQueue] })
export class JobsQueueModule {}
