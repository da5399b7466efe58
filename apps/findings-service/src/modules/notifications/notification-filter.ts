import {
  NOTIFICATION_ITEMIZE_MAX,
  NOTIFICATION_ITEMS_KEPT,
  SEVERITY_ORDER,
  type NotificationKind,
  type NotificationSeverity,
} from './notification-kinds';

/** One finding as a notification keeps it (no description: it may hold captured secrets). */
export interface NotificationItem {
  id: string;
  title: string;
  severity: string;
  status: string;
  product_id: string;
  product: string;
  location: string | null;
  due_at?: string | null;
}

/**
 * Findings per severity. A `closed_findings` notification also counts its `fixed` findings under
 * `fixed/<SEVERITY>`, so a channel whose fixed summary takes them can leave them out.
 */
export type NotificationCounts = Record<string, number>;

/** A channel's filter, frozen in the delivery row at fan-out. */
export interface ChannelThreshold {
  min_severity: NotificationSeverity;
  notify_on_close: boolean;
  fixed_min_severity: NotificationSeverity | null;
}

/** What one channel receives of a notification. */
export interface ChannelView {
  /** The threshold shown in the event (the severity the channel's filter starts at). */
  threshold: NotificationSeverity | null;
  total: number;
  counts: Partial<Record<NotificationSeverity, number>>;
  digest: boolean;
  items: NotificationItem[];
  more: number;
}

const RANK = new Map<string, number>(SEVERITY_ORDER.map((s, i) => [s, i]));
const rank = (severity: string) => RANK.get(severity) ?? SEVERITY_ORDER.length;
const isSeverity = (v: unknown): v is NotificationSeverity => typeof v === 'string' && RANK.has(v);

/** The filter of a project's channel settings (`min_severity` unset = INFO). */
export function channelThreshold(settings: Record<string, unknown>): ChannelThreshold {
  return {
    min_severity: isSeverity(settings['min_severity']) ? settings['min_severity'] : 'INFO',
    notify_on_close: settings['notify_on_close'] === true,
    fixed_min_severity: isSeverity(settings['fixed_min_severity'])
      ? settings['fixed_min_severity']
      : null,
  };
}

/** Severity descending, then id: the order of `items` (the items at or above a severity are a prefix). */
export function compareItems(a: NotificationItem, b: NotificationItem): number {
  return rank(a.severity) - rank(b.severity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Adds findings to a draft's counts and items (items cut to NOTIFICATION_ITEMS_KEPT). */
export function mergeIntoDraft(
  kind: NotificationKind,
  draft: { counts: NotificationCounts; items: NotificationItem[] },
  added: NotificationItem[],
): { counts: NotificationCounts; items: NotificationItem[] } {
  const counts = { ...draft.counts };
  for (const item of added) {
    counts[item.severity] = (counts[item.severity] ?? 0) + 1;
    if (kind === 'closed_findings' && item.status === 'fixed') {
      const key = `fixed/${item.severity}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
  const byId = new Map(draft.items.map((i) => [i.id, i]));
  for (const item of added) byId.set(item.id, item);
  const items = [...byId.values()].sort(compareItems).slice(0, NOTIFICATION_ITEMS_KEPT);
  return { counts, items };
}

/**
 * What a channel with `threshold` receives of a notification (§1.2, §1.4): null when its filter
 * leaves nothing (no delivery). Above NOTIFICATION_ITEMIZE_MAX findings the view is a digest
 * (counts, the most severe items, `more`); one message per notification either way.
 */
export function channelView(
  kind: NotificationKind,
  notification: { counts: NotificationCounts; items: NotificationItem[] },
  threshold: ChannelThreshold,
): ChannelView | null {
  let from: NotificationSeverity | null;
  let excludeFixedFrom: NotificationSeverity | null = null;
  switch (kind) {
    case 'new_findings':
    case 'sla_approaching':
    case 'sla_breached':
      from = threshold.min_severity;
      break;
    case 'closed_findings':
      if (!threshold.notify_on_close) return null;
      from = null;
      excludeFixedFrom = threshold.fixed_min_severity;
      break;
    case 'fixed_summary':
      if (threshold.fixed_min_severity === null) return null;
      from = threshold.fixed_min_severity;
      break;
  }
  const counts: Partial<Record<NotificationSeverity, number>> = {};
  let total = 0;
  for (const severity of SEVERITY_ORDER) {
    if (from !== null && rank(severity) > rank(from)) continue;
    let n = notification.counts[severity] ?? 0;
    if (excludeFixedFrom !== null && rank(severity) <= rank(excludeFixedFrom)) {
      n -= notification.counts[`fixed/${severity}`] ?? 0;
    }
    if (n > 0) {
      counts[severity] = n;
      total += n;
    }
  }
  if (total === 0) return null;
  const kept = notification.items.filter(
    (i) =>
      (from === null || rank(i.severity) <= rank(from)) &&
      !(
        excludeFixedFrom !== null &&
        i.status === 'fixed' &&
        rank(i.severity) <= rank(excludeFixedFrom)
      ),
  );
  const digest = total > NOTIFICATION_ITEMIZE_MAX;
  const items = kept.slice(0, NOTIFICATION_ITEMIZE_MAX);
  return { threshold: from, total, counts, digest, items, more: total - items.length };
}

/** The per-project settings every channel has (the service's; plugins never see them). */
const COMMON_SETTINGS = new Set([
  'enabled',
  'min_severity',
  'notify_on_close',
  'fixed_min_severity',
]);

/**
 * The settings a channel plugin receives: its installation settings and the project's
 * addressing fields, without the common ones (the service applies those itself).
 */
export function pluginSettings(
  installation: Record<string, unknown>,
  project: Record<string, unknown>,
): Record<string, unknown> {
  const settings: Record<string, unknown> = { ...installation };
  for (const [name, value] of Object.entries(project)) {
    if (!COMMON_SETTINGS.has(name)) settings[name] = value;
  }
  return settings;
}
