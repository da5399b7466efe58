import type { EnvReader } from '@platform/config';

/** Notification delivery (docs/findings-service/notifications.md). */
export interface NotificationsConfig {
  /** NOTIFICATION_FEED_INTERVAL_MS (default 2000): period of the leader's feed task. */
  feedIntervalMs: number;
  /** NOTIFICATION_QUIET_SECONDS (default 10): a draft with no new finding this long is sealed. */
  quietSeconds: number;
  /** NOTIFICATION_MAX_WINDOW_SECONDS (default 120): a draft open this long is sealed. */
  maxWindowSeconds: number;
  /** NOTIFICATION_CONCURRENCY (default 32): deliveries one worker process runs at a time. */
  concurrency: number;
  /** NOTIFICATION_MAX_ATTEMPTS (default 12): attempts before a delivery fails for good. */
  maxAttempts: number;
  /** NOTIFICATION_BACKOFF_BASE_SECONDS (default 15): the first retry's delay; doubles, ≤ 1 h. */
  backoffBaseSeconds: number;
  /** NOTIFICATION_RECONCILE_INTERVAL_MS (default 30000): period of the leader's reconciler. */
  reconcileIntervalMs: number;
  /** NOTIFICATION_LEASE_SECONDS (default 30): a claim's lease (the deliver deadline + 20 s). */
  leaseSeconds: number;
  /** NOTIFICATION_RETENTION_DELIVERED_DAYS (default 7): delivered/cancelled deliveries kept. */
  retentionDeliveredDays: number;
  /** NOTIFICATION_RETENTION_FAILED_DAYS (default 30): failed deliveries kept. */
  retentionFailedDays: number;
  /**
   * PUBLIC_WEB_URL (unset by default): the web UI's address as users reach it; links in the
   * events are absolute when set, omitted otherwise.
   */
  publicWebUrl: string | null;
  /** Variables of releases before 0.33 that are set but read by nothing (warned at start). */
  obsoleteVariables: string[];
}

/** Pre-0.33 channel variables: removed or no longer read (spec "Versioning", 0.33). */
export const OBSOLETE_NOTIFICATION_VARIABLES = [
  'MATTERMOST_NOTIFICATION_WORKERS',
  'MAXRU_NOTIFICATION_WORKERS',
  'TELEGRAM_NOTIFICATION_WORKERS',
  'MATTERMOST_ALLOW_LOCAL_DIAL',
] as const;

/** The start-up warning of each obsolete variable that is set. */
export function notificationWarnings(config: NotificationsConfig): string[] {
  return config.obsoleteVariables.map(
    (name) =>
      `${name} is set but no longer read: channels are plugins since 0.33 (docs/findings-service/notifications.md)`,
  );
}

export function readNotificationsConfig(r: EnvReader): NotificationsConfig {
  const publicWebUrl = r.optionalString('PUBLIC_WEB_URL');
  let url: string | null = null;
  if (publicWebUrl !== undefined && publicWebUrl !== '') {
    try {
      const parsed = new URL(publicWebUrl);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('scheme');
      url = parsed.toString().replace(/\/+$/, '');
    } catch {
      r.problem('PUBLIC_WEB_URL must be an http(s) URL (the web UI as users reach it)');
    }
  }
  return {
    feedIntervalMs: r.int('NOTIFICATION_FEED_INTERVAL_MS', 2_000, { min: 100, max: 600_000 }),
    quietSeconds: r.int('NOTIFICATION_QUIET_SECONDS', 10, { min: 0, max: 3_600 }),
    maxWindowSeconds: r.int('NOTIFICATION_MAX_WINDOW_SECONDS', 120, { min: 1, max: 86_400 }),
    concurrency: r.int('NOTIFICATION_CONCURRENCY', 32, { min: 1, max: 1_000 }),
    maxAttempts: r.int('NOTIFICATION_MAX_ATTEMPTS', 12, { min: 1, max: 100 }),
    backoffBaseSeconds: r.int('NOTIFICATION_BACKOFF_BASE_SECONDS', 15, { min: 1, max: 3_600 }),
    reconcileIntervalMs: r.int('NOTIFICATION_RECONCILE_INTERVAL_MS', 30_000, {
      min: 100,
      max: 3_600_000,
    }),
    leaseSeconds: r.int('NOTIFICATION_LEASE_SECONDS', 30, { min: 1, max: 3_600 }),
    retentionDeliveredDays: r.int('NOTIFICATION_RETENTION_DELIVERED_DAYS', 7, {
      min: 1,
      max: 3_650,
    }),
    retentionFailedDays: r.int('NOTIFICATION_RETENTION_FAILED_DAYS', 30, { min: 1, max: 3_650 }),
    publicWebUrl: url,
    obsoleteVariables: OBSOLETE_NOTIFICATION_VARIABLES.filter((name) => r.raw(name) !== undefined),
  };
}
