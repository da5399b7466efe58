import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { loggableError } from '@platform/logging';
import { type CollectionKind, PeriodicCollector, replaceGaugeValues } from '@platform/metrics';
import type { Queue } from 'bullmq';
import { Gauge } from 'prom-client';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { NotificationQueue } from '../../modules/notification-queue/notification-queue.provider';
import { ReportQueue } from '../../modules/report-queue/report-queue.provider';
import { BusinessMetricsRepository } from './business-metrics.repository';
import { FindingsMetrics } from '../../app/metrics/findings-metrics';

/** Severities always shown by `findsvc_sla_violations_open` (0 when none is open). */
const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;

/** The BullMQ job states `findsvc_queue_jobs` shows for every queue. */
export const QUEUE_JOB_STATES = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'completed',
  'failed',
] as const;

/**
 * The findings service's business figures, collected by the API process only (every
 * METRICS_COLLECT_INTERVAL_SECONDS, first at start) into its registry:
 * `findsvc_findings{severity,status}`, `findsvc_sla_violations_open{severity}`,
 * `findsvc_queue_jobs{kind,state}` (kind = queue), `findsvc_db_connections{state}` (open, busy,
 * idle), `findsvc_metrics_last_collect_success_timestamp_seconds` and
 * `findsvc_metrics_collect_failures_total{kind}` (kinds: findings, sla_violations,
 * queue_jobs, db_connections). A failed kind keeps its previous values.
 */
@Injectable()
export class BusinessMetricsCollector implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('BusinessMetrics');
  readonly collector: PeriodicCollector;

  constructor(
    @Inject(FINDINGS_CONFIG) config: FindingsConfig,
    metrics: FindingsMetrics,
    repository: BusinessMetricsRepository,
    reportQueue: ReportQueue,
    notificationQueue: NotificationQueue,
  ) {
    const registers = [metrics.registry];
    const findings = new Gauge({
      name: 'findsvc_findings',
      help: 'Findings by severity and status',
      labelNames: ['severity', 'status'],
      registers,
    });
    const violations = new Gauge({
      name: 'findsvc_sla_violations_open',
      help: 'Open remediation-deadline violations by severity',
      labelNames: ['severity'],
      registers,
    });
    const jobs = new Gauge({
      name: 'findsvc_queue_jobs',
      help: 'Queue jobs by kind (queue) and state',
      labelNames: ['kind', 'state'],
      registers,
    });
    const connections = new Gauge({
      name: 'findsvc_db_connections',
      help: 'Database connections of this process pool: open, busy, idle',
      labelNames: ['state'],
      registers,
    });
    const queues = (): Queue[] => [reportQueue.queue, notificationQueue.queue];
    const kinds: CollectionKind[] = [
      {
        name: 'findings',
        read: async () => {
          const rows = await repository.findingsBySeverityAndStatus();
          return () =>
            replaceGaugeValues(
              findings,
              rows.map((r) => ({
                labels: { severity: r.severity, status: r.status },
                value: r.count,
              })),
            );
        },
      },
      {
        name: 'sla_violations',
        read: async () => {
          const open = await repository.openViolationsBySeverity();
          const severities = new Set<string>([...SEVERITIES, ...open.keys()]);
          return () =>
            replaceGaugeValues(
              violations,
              [...severities].map((severity) => ({
                labels: { severity },
                value: open.get(severity) ?? 0,
              })),
            );
        },
      },
      {
        name: 'queue_jobs',
        read: async () => {
          const counts = await Promise.all(
            queues().map(async (queue) => ({
              kind: queue.name,
              counts: await queue.getJobCounts(...QUEUE_JOB_STATES),
            })),
          );
          return () =>
            replaceGaugeValues(
              jobs,
              counts.flatMap(({ kind, counts: byState }) =>
                QUEUE_JOB_STATES.map((state) => ({
                  labels: { kind, state },
                  value: byState[state] ?? 0,
                })),
              ),
            );
        },
      },
      {
        name: 'db_connections',
        read: async () => {
          const pool = repository.poolStats();
          return () =>
            replaceGaugeValues(connections, [
              { labels: { state: 'open' }, value: pool.open },
              { labels: { state: 'busy' }, value: pool.busy },
              { labels: { state: 'idle' }, value: pool.idle },
            ]);
        },
      },
    ];
    this.collector = new PeriodicCollector({
      registry: metrics.registry,
      kinds,
      intervalMs: config.metricsCollectIntervalSeconds * 1000,
      names: {
        lastSuccess: 'findsvc_metrics_last_collect_success_timestamp_seconds',
        failures: 'findsvc_metrics_collect_failures_total',
      },
      onFailure: (kind, error) =>
        this.logger.warn(
          `business metrics: ${kind} not collected, old values kept: ${loggableError(error).message}`,
        ),
    });
  }

  onApplicationBootstrap(): void {
    this.collector.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.collector.stop();
  }
}
