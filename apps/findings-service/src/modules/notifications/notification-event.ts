import type { NotificationKind } from './notification-kinds';
import type { ChannelView } from './notification-filter';

/** The version of the event's shape (`schema`); channel plugins read it. */
export const NOTIFICATION_EVENT_SCHEMA = 'findsvc.notification/1';

/** Titles in the event are cut to this many characters. */
export const EVENT_TITLE_MAX = 300;

/** One finding of the event. `url` only when PUBLIC_WEB_URL is set. */
export interface NotificationEventItem {
  id: string;
  title: string;
  severity: string;
  status: string;
  product: string;
  location: string | null;
  url?: string;
  due_at: string | null;
}

/**
 * The event a channel plugin receives (`payload.event`, the native `event_json`;
 * docs/findings-service/notifications.md#the-event). `total`/`counts` are after the channel's
 * filter. No secret and no description text.
 */
export interface NotificationEvent {
  schema: typeof NOTIFICATION_EVENT_SCHEMA;
  kind: NotificationKind;
  notification_id: string;
  project: { id: string; name: string; url?: string };
  created_at: string;
  threshold: string | null;
  total: number;
  counts: Record<string, number>;
  digest: boolean;
  items: NotificationEventItem[];
  more: number;
  list_url?: string;
}

export interface EventSource {
  notificationId: string;
  kind: NotificationKind;
  project: { id: string; name: string };
  /** When the notification was sealed (its `created_at` in the event). */
  sealedAt: Date;
}

/** The findings list's status filter of each kind (the list link). */
const LIST_STATUS: Record<NotificationKind, string | null> = {
  new_findings: null,
  closed_findings: 'fixed|false_positive',
  fixed_summary: 'fixed',
  sla_approaching: null,
  sla_breached: null,
};

function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** Builds the event of one delivery: the notification as the channel's filter leaves it. */
export function buildNotificationEvent(
  source: EventSource,
  view: ChannelView,
  publicWebUrl: string | null,
): NotificationEvent {
  const base = publicWebUrl?.replace(/\/+$/, '') ?? null;
  const project: NotificationEvent['project'] = { ...source.project };
  if (base) project.url = `${base}/projects/${source.project.id}`;
  const event: NotificationEvent = {
    schema: NOTIFICATION_EVENT_SCHEMA,
    kind: source.kind,
    notification_id: source.notificationId,
    project,
    created_at: source.sealedAt.toISOString(),
    threshold: view.threshold,
    total: view.total,
    counts: { ...view.counts },
    digest: view.digest,
    items: view.items.map((i) => {
      const item: NotificationEventItem = {
        id: i.id,
        title: cut(i.title, EVENT_TITLE_MAX),
        severity: i.severity,
        status: i.status,
        product: i.product,
        location: i.location,
        due_at: i.due_at ?? null,
      };
      if (base) item.url = `${base}/findings/${i.id}`;
      return item;
    }),
    more: view.more,
  };
  if (base) event.list_url = listUrl(base, source, view);
  return event;
}

/**
 * The findings list filtered to the project, the channel's severities and the kind's status.
 * (The query language has no time comparison, so the list is not cut to the window.)
 */
function listUrl(base: string, source: EventSource, view: ChannelView): string {
  const terms = [`project_id:${source.project.id}`];
  const severities = Object.keys(view.counts);
  if (severities.length > 0) terms.push(`severity:${severities.join('|')}`);
  const status = LIST_STATUS[source.kind];
  if (status) terms.push(`status:${status}`);
  return `${base}/findings?q=${encodeURIComponent(terms.join(' '))}`;
}
