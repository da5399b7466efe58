import { DynamicModule, Module } from '@nestjs/common';
import { PeriodicTasksModule } from '@platform/database';
import { LoggingModule, type ProcessLogger } from '@platform/logging';
import { Tracing, TracingModule } from '@platform/tracing';
import type { CertsvcConfig } from '../app/config/certsvc-config';
import { CoreModule } from '../app/core.module';
import type { CertsvcMetrics } from '../app/metrics/certsvc-metrics';
import { certificateDatabase } from '../database/database';
import { CertificatesModule } from '../modules/certificates/certificates.module';
import { CrlModule } from '../modules/crl/crl.module';
import { CrlService } from '../modules/crl/crl.service';
import {
  K8sCredentialsRetention,
  K8sRetentionModule,
} from '../modules/k8s/k8s-credentials-retention';
import { startCertsvcTracing } from '../app/tracing/certsvc-tracing';
import { CRL_REFRESH_CHECK_MS, crlRefreshTask } from './crl-refresh.task';
import { K8S_CREDENTIALS_PURGE_MS, k8sCredentialsPurgeTask } from './k8s-credentials-purge.task';
import { tracedTask } from './traced-task';
import { LOG_SNAPSHOTS_PURGE_MS, logSnapshotsPurgeTask } from './log-snapshots-purge.task';
import { LogSnapshotsRetentionModule } from '../modules/log-snapshots/log-snapshots.module';
import { LogSnapshotsRetention } from '../modules/log-snapshots/log-snapshots-retention';
import { ScepModule } from '../modules/scep/scep.module';
import { ScepPollerService } from '../modules/scep/scep-poller.service';
import { scepPollTask } from './scep-poll.task';
import { WebhookDeliveryModule } from '../modules/webhooks/webhooks.module';
import { WebhookDeliveryWorker } from '../modules/webhooks/webhook-delivery.worker';
import { WebhookRetention } from '../modules/webhooks/webhook-retention';
import { webhookDeliveryTask, webhookRetentionTask } from './webhook-tasks';

/** One leader among the worker replicas runs every periodic task. */
export const WORKER_LEADER_LOCK = 'certificate-service:worker-leader';

export interface WorkerRuntime {
  config: CertsvcConfig;
  logger: ProcessLogger;
  metrics: CertsvcMetrics;
}

export interface WorkerSchedule {
  crlRefreshEveryMs: number;
  /** Default `K8S_CREDENTIALS_PURGE_MS` (hourly). */
  k8sCredentialsPurgeEveryMs?: number;
  /** Default `CERTSVC_WEBHOOK_POLL_SECONDS`. */
  webhookDeliveryEveryMs?: number;
  /** Default `WEBHOOK_RETENTION_PURGE_MS` (6 hours). */
  webhookRetentionEveryMs?: number;
  /** Default `CERTSVC_SCEP_POLL_SECONDS`. */
  scepPollEveryMs?: number;
  /** Default `LOG_SNAPSHOTS_PURGE_MS` (hourly). */
  logSnapshotsPurgeEveryMs?: number;
}

/**
 * The background worker: no HTTP. Waits for the API's migrations, then runs the periodic
 * tasks (CRL re-signing, purge of expired Kubernetes credential rows) on the replica holding
 * the leader lock, each run in a span of its own.
 */
@Module({})
export class WorkerModule {
  static forRoot(
    runtime: WorkerRuntime,
    schedule: WorkerSchedule = { crlRefreshEveryMs: CRL_REFRESH_CHECK_MS },
  ): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot(runtime.config, runtime.metrics),
        LoggingModule.forRoot({ logger: runtime.logger }),
        TracingModule.forRoot(startCertsvcTracing(runtime.config, 'worker')),
        certificateDatabase(runtime.config, 'wait'),
        CertificatesModule,
        CrlModule,
        PeriodicTasksModule.forRoot({
          leaderLock: WORKER_LEADER_LOCK,
          imports: [
            K8sRetentionModule,
            WebhookDeliveryModule,
            ScepModule,
            LogSnapshotsRetentionModule,
          ],
          inject: [
            CrlService,
            K8sCredentialsRetention,
            Tracing,
            WebhookDeliveryWorker,
            WebhookRetention,
            ScepPollerService,
            LogSnapshotsRetention,
          ],
          tasks: (
            crl: CrlService,
            k8s: K8sCredentialsRetention,
            tracing: Tracing,
            webhooks: WebhookDeliveryWorker,
            webhookRetention: WebhookRetention,
            scep: ScepPollerService,
            logSnapshots: LogSnapshotsRetention,
          ) => [
            tracedTask(tracing, 'crl-refresh', crlRefreshTask(crl, schedule.crlRefreshEveryMs)),
            tracedTask(
              tracing,
              'k8s-credentials-purge',
              k8sCredentialsPurgeTask(
                k8s,
                schedule.k8sCredentialsPurgeEveryMs ?? K8S_CREDENTIALS_PURGE_MS,
              ),
            ),
            ...webhookDeliveryTask(runtime.config, webhooks, schedule.webhookDeliveryEveryMs).map(
              (task) => tracedTask(tracing, 'webhook-delivery', task),
            ),
            tracedTask(
              tracing,
              'webhook-retention-purge',
              webhookRetentionTask(webhookRetention, schedule.webhookRetentionEveryMs),
            ),
            tracedTask(
              tracing,
              'scep-poll',
              scepPollTask(runtime.config, scep, schedule.scepPollEveryMs),
            ),
            tracedTask(
              tracing,
              'log-snapshots-purge',
              logSnapshotsPurgeTask(
                logSnapshots,
                schedule.logSnapshotsPurgeEveryMs ?? LOG_SNAPSHOTS_PURGE_MS,
              ),
            ),
          ],
        }),
      ],
    };
  }
}
