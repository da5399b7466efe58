// test-lane: waiting — quiet drafts sealed on the feed's timer, a delivery retried after its
// back-off until given up: ~28 of its ~34 s are waits (tools/test/lanes.js).
import { waitFor } from '@platform/testing';
import { addJob } from '@platform/queue';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { SLA_DEADLINE_NOTIFICATION } from '../../src/modules/notification-queue/sla-deadline-notification.job';
import { NotificationQueue } from '../../src/modules/notification-queue/notification-queue.provider';
import { channelThreshold, channelView } from '../../src/modules/notifications/notification-filter';
import { SlaDeadlineNotifications } from '../../src/modules/notifications/sla-deadline-notifications.service';
import { bearer } from '../support/catalog';
import { freshProduct, seedFindings } from '../support/findings-seed';
import { startIngestion, type IngestionStack } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { syntheticSarif } from '../support/synthetic-sarif';
import {
  configureChannel,
  deliveriesOf,
  notificationsOf,
  sarifWithLevels,
  seedChannelPlugin,
} from './support';

/**
 * The feed task (modules/notifications/notification-feed.service.ts) in a real worker: uploads
 * are ingested, the action log feeds drafts, quiet drafts are sealed and fanned out to the
 * enabled channels. No runner here: the deliveries are only counted (delivery.e2e-spec.ts
 * delivers them).
 */
let stack: IngestionStack;
let highChannel: string;
let allChannel: string;
let offChannel: string;
let disabledPlugin: string;

beforeAll(async () => {
  stack = await startIngestion({
    worker: true,
    env: {
      NOTIFICATION_FEED_INTERVAL_MS: '250',
      NOTIFICATION_QUIET_SECONDS: '4',
      NOTIFICATION_RECONCILE_INTERVAL_MS: '3600000',
      // No runner in this file: every attempt fails; two attempts, 1 s apart, then failed.
      NOTIFICATION_MAX_ATTEMPTS: '2',
      NOTIFICATION_BACKOFF_BASE_SECONDS: '1',
    },
  });
  highChannel = await seedChannelPlugin(stack.t, `high-${randomUUID()}`);
  allChannel = await seedChannelPlugin(stack.t, `all-${randomUUID()}`);
  offChannel = await seedChannelPlugin(stack.t, `off-${randomUUID()}`);
  disabledPlugin = await seedChannelPlugin(stack.t, `disabled-${randomUUID()}`, {
    enabled: false,
  });
}, 120_000);
afterAll(() => stack.close());

/** A fresh project with the four channels: HIGH+, everything, switched off, plugin disabled. */
async function projectWithChannels() {
  const product = await freshProduct(stack.t, stack.admin);
  const project = product.project_id;
  await configureChannel(stack.t, project, highChannel, { enabled: true, min_severity: 'HIGH' });
  await configureChannel(stack.t, project, allChannel, { enabled: true });
  await configureChannel(stack.t, project, offChannel, { enabled: false });
  await configureChannel(stack.t, project, disabledPlugin, { enabled: true });
  return product;
}

async function ingest(productId: string, sarif: string) {
  const id = await uploadReport(stack.t, bearer(stack.admin), productId, sarif);
  const report = await waitForReport(stack.t, bearer(stack.admin), id, 240_000);
  expect(report.status).toBe('completed');
  return report;
}

const sealed = (project: string, count = 1, timeoutMs = 60_000) =>
  waitFor(
    async () => {
      const list = await notificationsOf(stack.t, project);
      if (list.length < count || list.some((n) => n.state !== 'sealed')) {
        throw new Error(`notifications: ${JSON.stringify(list.map((n) => n.state))}`);
      }
      return list;
    },
    { timeoutMs, intervalMs: 250, what: 'sealed notifications' },
  );

describe('Notifications - the feed task', () => {
  it('an upload makes one sealed notification and one delivery per enabled channel whose min_severity it reaches', async () => {
    const product = await projectWithChannels();
    await ingest(product.id, sarifWithLevels(['error', 'error', 'note']));
    const [notification, ...others] = await sealed(product.project_id);
    expect(others).toEqual([]);
    expect(notification).toMatchObject({
      kind: 'new_findings',
      finding_count: 3,
      counts: { HIGH: 2, LOW: 1 },
    });
    expect(notification!.items.map((i) => i.severity)).toEqual(['HIGH', 'HIGH', 'LOW']);
    // Fan-out happens in the sealing transaction: the deliveries are there once it is sealed.
    const deliveries = await deliveriesOf(stack.t, product.project_id);
    expect(deliveries.map((d) => d.installed_plugin_id).sort()).toEqual(
      [highChannel, allChannel].sort(),
    );
    for (const d of deliveries) {
      expect(d.notification_id).toBe(notification!.id);
      expect(d.idempotency_key).toBe(`ntf:${notification!.id}:${d.installed_plugin_id}`);
    }
    expect(deliveries.find((d) => d.installed_plugin_id === highChannel)!.threshold).toEqual({
      min_severity: 'HIGH',
      notify_on_close: false,
      fixed_min_severity: null,
    });
  });

  it('findings below every channel’s min_severity make no delivery; a project without channels no notification', async () => {
    const product = await freshProduct(stack.t, stack.admin);
    await configureChannel(stack.t, product.project_id, highChannel, {
      enabled: true,
      min_severity: 'HIGH',
    });
    await ingest(product.id, sarifWithLevels(['note', 'warning'], 'LowScanner'));
    const [notification] = await sealed(product.project_id);
    expect(notification!.counts).toEqual({ LOW: 1, MEDIUM: 1 });
    expect(await deliveriesOf(stack.t, product.project_id)).toEqual([]);

    const silent = await freshProduct(stack.t, stack.admin);
    await ingest(silent.id, sarifWithLevels(['error'], 'SilentScanner'));
    // The report is in and the feed has moved past it (a later project's notification is sealed).
    const later = await projectWithChannels();
    await ingest(later.id, sarifWithLevels(['error'], 'LaterScanner'));
    await sealed(later.project_id);
    expect(await notificationsOf(stack.t, silent.project_id)).toEqual([]);
  });

  it('closures reach channels with notify_on_close, fixed findings the fixed summary (not repeated as closures)', async () => {
    const product = await freshProduct(stack.t, stack.admin);
    const project = product.project_id;
    await configureChannel(stack.t, project, allChannel, {
      enabled: true,
      notify_on_close: true,
      fixed_min_severity: 'HIGH',
    });
    await configureChannel(stack.t, project, highChannel, { enabled: true });
    const [critical, low] = await seedFindings(stack.t, product, [
      { severity: 'CRITICAL', title: 'critical one' },
      { severity: 'LOW', title: 'low one' },
    ]);
    await request(stack.t.url)
      .post('/api/v1/findings/bulk-status')
      .set('Authorization', `Bearer ${stack.admin.token}`)
      .send({ finding_ids: [critical, low], status: 'fixed' })
      .expect((res) => {
        if (res.status >= 300) throw new Error(`bulk status ${res.status}: ${res.text}`);
      });
    const list = await sealed(project, 2);
    const byKind = new Map(list.map((n) => [n.kind, n]));
    expect(byKind.get('closed_findings')).toMatchObject({ counts: { CRITICAL: 1, LOW: 1 } });
    expect(byKind.get('fixed_summary')).toMatchObject({ counts: { CRITICAL: 1, LOW: 1 } });
    const deliveries = await deliveriesOf(stack.t, project);
    // `allChannel`: the closure (its LOW part) and the summary (its CRITICAL part);
    // `highChannel`: neither (no notify_on_close, no fixed_min_severity).
    expect(
      deliveries
        .map((d) => [d.installed_plugin_id, list.find((n) => n.id === d.notification_id)!.kind])
        .sort(),
    ).toEqual(
      [
        [allChannel, 'closed_findings'],
        [allChannel, 'fixed_summary'],
      ].sort(),
    );
  });

  it('a 10 000-finding report makes one digest notification, one delivery per channel', async () => {
    const product = await projectWithChannels();
    await ingest(product.id, syntheticSarif(10_000, 'BigScanner'));
    const list = await sealed(product.project_id, 1, 120_000);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ kind: 'new_findings', finding_count: 10_000 });
    expect(Object.values(list[0]!.counts).reduce((a, b) => a + b, 0)).toBe(10_000);
    expect(list[0]!.items).toHaveLength(50);
    // Every channel gets a digest of it (20 items and the rest counted), never 10 000 messages.
    const view = channelView('new_findings', list[0]!, channelThreshold({}))!;
    expect(view).toMatchObject({ total: 10_000, digest: true, more: 9_980 });
    expect(view.items).toHaveLength(20);
    const deliveries = await deliveriesOf(stack.t, product.project_id);
    expect(deliveries.map((d) => d.installed_plugin_id).sort()).toEqual(
      [highChannel, allChannel].sort(),
    );
  }, 300_000);

  it('the hourly check’s deadline jobs are consumed: one sealed notification per job, the queue drains, a redelivery adds nothing', async () => {
    const product = await projectWithChannels();
    const [finding] = await seedFindings(stack.t, product, [{ severity: 'HIGH' }]);
    const queue = stack.worker!.get(NotificationQueue);
    const data = {
      kind: 'breached' as const,
      projectId: product.project_id,
      checkedAt: new Date().toISOString(),
      violations: [
        {
          violationId: randomUUID(),
          findingId: finding!,
          productId: product.id,
          severity: 'HIGH',
          title: 'late one',
          dueAt: new Date(Date.now() - 3_600_000).toISOString(),
        },
      ],
    };
    const jobId = `sla-test-${randomUUID()}`;
    await addJob(queue.queue, SLA_DEADLINE_NOTIFICATION, data, { jobId });
    const [notification] = await sealed(product.project_id);
    expect(notification).toMatchObject({
      kind: 'sla_breached',
      source_key: `sla:${jobId}`,
      finding_count: 1,
    });
    expect(notification!.items[0]).toMatchObject({ id: finding, severity: 'HIGH' });
    await waitFor(
      async () => {
        const counts = await queue.queue.getJobCounts('waiting', 'active', 'delayed');
        const job = await queue.queue.getJob(jobId);
        if (!job || !(await job.isCompleted())) throw new Error('sla job not completed');
        return counts;
      },
      { timeoutMs: 30_000, what: 'the deadline job completed' },
    );
    // A redelivered job (stalled, retried) adds nothing.
    await stack.worker!.get(SlaDeadlineNotifications).consume(jobId, data);
    expect(await notificationsOf(stack.t, product.project_id)).toHaveLength(1);
    const deliveries = await deliveriesOf(stack.t, product.project_id);
    expect(deliveries.map((d) => d.installed_plugin_id).sort()).toEqual(
      [highChannel, allChannel].sort(),
    );
  });

  it('without a runner a delivery is retried after the back-off, then failed as attempts_exhausted', async () => {
    const product = await freshProduct(stack.t, stack.admin);
    await configureChannel(stack.t, product.project_id, allChannel, { enabled: true });
    await ingest(product.id, sarifWithLevels(['error'], 'NoRunnerScanner'));
    const failed = await waitFor(
      async () => {
        const [d] = await deliveriesOf(stack.t, product.project_id);
        if (d?.state !== 'failed') throw new Error(`delivery: ${JSON.stringify(d)}`);
        return d;
      },
      { timeoutMs: 60_000, intervalMs: 200, what: 'the delivery given up' },
    );
    expect(failed).toMatchObject({ attempts: 2, last_error_code: 'attempts_exhausted' });
    expect(failed.last_error_message).toMatch(/^2 attempts failed; the last: /);
  });
});
