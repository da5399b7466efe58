/** Kinds of notification (docs/findings-service/notifications.md); they appear in the event. */
export const NOTIFICATION_KINDS = [
  'new_findings',
  'closed_findings',
  'fixed_summary',
  'sla_approaching',
  'sla_breached',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_STATES = ['collecting', 'sealed'] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

export const DELIVERY_STATES = [
  'pending',
  'delivering',
  'delivered',
  'failed',
  'cancelled',
] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** Severities, most severe first (the order of `items` and of the thresholds). */
export const SEVERITY_ORDER = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export type NotificationSeverity = (typeof SEVERITY_ORDER)[number];

/** Findings a notification keeps individually (the rest only count). */
export const NOTIFICATION_ITEMS_KEPT = 50;
/** Above this many findings after a channel's filter the event is a digest. */
export const NOTIFICATION_ITEMIZE_MAX = 20;
/** A draft this large is sealed at once. */
export const NOTIFICATION_MAX_FINDINGS = 100_000;
