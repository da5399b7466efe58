import { Inject, Injectable, Logger } from '@nestjs/common';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Counter, Histogram } from 'prom-client';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { FindingsMetrics } from '../../app/metrics/findings-metrics';
import { PluginRunnerClient } from '../plugin-runner-client/plugin-runner.client';
import { PluginRunnerClientError } from '../plugin-runner-client/plugin-runner-client.errors';
import type { KnownInstallation } from '../plugin-runner-client/host-call-ports';
import { installedManifest } from '../plugins/installed-plugins/installed-manifest';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';
import { DeliveryJobs } from './delivery-jobs';
import {
  backoffSeconds,
  deliveryOutcome,
  overloadedDelaySeconds,
  unreachableOutcome,
  type DeliveryOutcome,
  type RunnerAnswer,
} from './delivery-outcome';
import { buildNotificationEvent } from './notification-event';
import { channelView, pluginSettings } from './notification-filter';
import { NotificationsRepository, type ClaimedDelivery } from './notifications.repository';

/** The channel installation of one attempt, as its claim read it. */
interface Channel {
  id: string;
  catalogPluginId: string;
  known: KnownInstallation;
}

/** The runner's deadline of one `deliver` call. */
export const DELIVER_DEADLINE_MS = 10_000;

export type AttemptResult =
  'not_claimed' | 'delivered' | 'failed' | 'retry' | 'overloaded' | 'cancelled' | 'lease_lost';

/**
 * One delivery attempt (§1.5): claim the row (conditional update + lease) and read its
 * notification, project config and installation in the same statement, check the channel is
 * still enabled, build the event, invoke the channel plugin's `deliver` with the delivery's
 * idempotency key (the host calls answer from the installation the claim read), finish the
 * row only while holding the lease, and schedule the retry.
 */
@Injectable()
export class NotificationDeliveryService {
  private readonly logger = new Logger('NotificationDelivery');
  /** `<hostname>:<pid>:<random>`: whose lease a claimed row carries. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly outcomes: Counter<'outcome'>;
  private readonly seconds: Histogram;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly repository: NotificationsRepository,
    private readonly plugins: InstalledPluginsService,
    private readonly runner: PluginRunnerClient,
    private readonly jobs: DeliveryJobs,
    metrics: FindingsMetrics,
  ) {
    const registry = metrics.registry;
    this.outcomes =
      (registry.getSingleMetric('findsvc_notification_deliveries_total') as
        Counter<'outcome'> | undefined) ??
      new Counter({
        name: 'findsvc_notification_deliveries_total',
        help: 'Notification delivery attempts by outcome',
        labelNames: ['outcome'],
        registers: [registry],
      });
    this.seconds =
      (registry.getSingleMetric('findsvc_notification_delivery_seconds') as
        Histogram | undefined) ??
      new Histogram({
        name: 'findsvc_notification_delivery_seconds',
        help: 'Duration of one delivery attempt (claim to finish)',
        buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers: [registry],
      });
  }

  async attempt(deliveryId: string): Promise<AttemptResult> {
    const { leaseSeconds } = this.config.notifications;
    const delivery = await this.repository.claim(deliveryId, this.owner, leaseSeconds);
    if (!delivery) return 'not_claimed';
    const started = Date.now();
    const result = await this.run(delivery);
    this.outcomes.inc({ outcome: result });
    this.seconds.observe((Date.now() - started) / 1000);
    return result;
  }

  private async run(delivery: ClaimedDelivery): Promise<AttemptResult> {
    const { context, installation } = delivery;
    const cancel = (code: string, message: string) =>
      this.repository
        .finishCancelled(delivery.id, this.owner, code, message)
        .then((ok) => (ok ? 'cancelled' : 'lease_lost') as AttemptResult);
    if (
      !installation ||
      !installation.enabled ||
      !installation.capabilities.includes('notification_channel')
    ) {
      return cancel('channel_disabled', 'the channel plugin is disabled or no longer installed');
    }
    if (!context || context.channelSettings?.['enabled'] !== true) {
      return cancel('channel_disabled', "the project's channel is disabled or not configured");
    }
    let manifest;
    try {
      manifest = installedManifest(installation);
    } catch {
      return cancel('channel_disabled', "the channel plugin's stored manifest does not validate");
    }
    const view = channelView(context.kind, context, delivery.threshold);
    if (!view) return cancel('nothing_to_send', "nothing passes the channel's filter");
    const event = buildNotificationEvent(
      {
        notificationId: delivery.notificationId,
        kind: context.kind,
        project: context.project,
        sealedAt: context.sealedAt,
      },
      view,
      this.config.notifications.publicWebUrl,
    );
    const channel: Channel = {
      id: delivery.installedPluginId,
      catalogPluginId: installation.catalogPluginId,
      known: {
        artifactSha256: installation.artifactSha256,
        enabled: true,
        manifest,
        settings: installation.settings,
        secretSettings: installation.secretSettings,
        projectSettings: context.channelSettings,
        projectSecretSettings: context.channelSecretSettings,
      },
    };
    const outcome = await this.invoke(channel, delivery, event);
    return this.finish(delivery, channel, outcome);
  }

  private async invoke(
    channel: Channel,
    delivery: ClaimedDelivery,
    event: unknown,
  ): Promise<DeliveryOutcome> {
    const { known } = channel;
    const invocation = {
      context: {
        pluginId: channel.id,
        versionDigest: known.artifactSha256,
        projectId: delivery.projectId,
        eventId: delivery.id,
        installation: known,
      },
      capability: 'notification_channel',
      operation: 'deliver',
      payload: { event },
      settings: pluginSettings(known.settings, known.projectSettings ?? {}),
      idempotencyKey: delivery.idempotencyKey,
      deadlineMs: DELIVER_DEADLINE_MS,
    };
    try {
      const { generation } = await this.plugins.ensureLoaded(channel.id, {
        knownDigest: known.artifactSha256,
      });
      let answer: RunnerAnswer = await this.runner.invoke(invocation);
      if (!answer.ok && answer.error.code === 'not_loaded') {
        await this.plugins.ensureLoaded(channel.id, { force: true, seenGeneration: generation });
        answer = await this.runner.invoke(invocation);
      }
      return deliveryOutcome(answer);
    } catch (error) {
      if (error instanceof PluginRunnerClientError) {
        return unreachableOutcome(error.code, error.message);
      }
      // A load refused on this side (plugin_runner_unavailable, plugin_artifact_invalid, ...).
      const code = (error as { code?: unknown }).code;
      return unreachableOutcome(
        typeof code === 'string' && code.length <= 48 ? code : 'runner_unavailable',
        (error as Error).message,
      );
    }
  }

  private async finish(
    delivery: ClaimedDelivery,
    plugin: Channel,
    outcome: DeliveryOutcome,
  ): Promise<AttemptResult> {
    const { id } = delivery;
    const { maxAttempts, backoffBaseSeconds } = this.config.notifications;
    switch (outcome.kind) {
      case 'delivered': {
        const ok = await this.repository.finishDelivered(id, this.owner, outcome.result);
        return ok ? 'delivered' : 'lease_lost';
      }
      case 'failed': {
        const ok = await this.repository.finishFailed(
          id,
          this.owner,
          outcome.code,
          outcome.message,
          true,
        );
        if (ok) this.logFailure(delivery, plugin, outcome.code);
        return ok ? 'failed' : 'lease_lost';
      }
      case 'retry': {
        const attempts = delivery.attempts + 1;
        if (attempts >= maxAttempts) {
          const ok = await this.repository.finishFailed(
            id,
            this.owner,
            'attempts_exhausted',
            `${attempts} attempts failed; the last: ${outcome.code}: ${outcome.message}`.slice(
              0,
              1000,
            ),
            true,
          );
          if (ok) this.logFailure(delivery, plugin, 'attempts_exhausted');
          return ok ? 'failed' : 'lease_lost';
        }
        const delay = backoffSeconds(attempts, backoffBaseSeconds, outcome.retryAfterSeconds);
        const ok = await this.repository.finishRetry(
          id,
          this.owner,
          delay,
          true,
          outcome.code,
          outcome.message,
        );
        if (!ok) return 'lease_lost';
        await this.jobs.add([{ id, attempts }], delay * 1000);
        return 'retry';
      }
      case 'overloaded': {
        const delay = overloadedDelaySeconds();
        const ok = await this.repository.finishRetry(id, this.owner, delay, false, null, null);
        if (!ok) return 'lease_lost';
        await this.jobs.add([{ id, attempts: delivery.attempts }], delay * 1000, `o${Date.now()}`);
        return 'overloaded';
      }
    }
  }

  /** One line per permanent failure: project, plugin, code — never the event or a secret. */
  private logFailure(delivery: ClaimedDelivery, plugin: Channel, code: string): void {
    this.logger.warn(
      `notification delivery failed: delivery ${delivery.id}, project ${delivery.projectId}, plugin ${plugin.catalogPluginId} (${plugin.id}), code ${code}`,
    );
  }
}
