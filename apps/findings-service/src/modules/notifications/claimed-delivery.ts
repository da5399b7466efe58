import type { ChannelThreshold, NotificationCounts, NotificationItem } from './notification-filter';
import type { DeliveryState, NotificationKind } from './notification-kinds';

/** A claimed delivery with what its attempt reads, as CLAIM_SQL answers it. */
export interface ClaimedDelivery {
  id: string;
  notificationId: string;
  projectId: string;
  installedPluginId: string;
  idempotencyKey: string;
  threshold: ChannelThreshold;
  state: DeliveryState;
  attempts: number;
  /** Read by the claim's statement; null when the notification is gone. */
  context: DeliveryContext | null;
  /** The installation as the claim read it; null when it was removed. */
  installation: ClaimedInstallation | null;
}

/** The installation's row as the claim reads it (the plugins module parses and opens it). */
export interface ClaimedInstallation {
  catalogPluginId: string;
  enabled: boolean;
  capabilities: string[];
  artifactSha256: string;
  manifest: Buffer;
  settings: Record<string, unknown>;
  secretSettings: string | null;
}

export interface DeliveryContext {
  kind: NotificationKind;
  counts: NotificationCounts;
  items: NotificationItem[];
  sealedAt: Date;
  project: { id: string; name: string };
  /** The project's channel settings; null when the config was removed. */
  channelSettings: Record<string, unknown> | null;
  /** The project's sealed secret settings of the channel. */
  channelSecretSettings: string | null;
}

type Row = Record<string, unknown>;

/** One row of CLAIM_SQL. */
export function claimedOf(r: Row): ClaimedDelivery {
  return {
    id: String(r['id']),
    notificationId: String(r['notification_id']),
    projectId: String(r['project_id']),
    installedPluginId: String(r['installed_plugin_id']),
    idempotencyKey: String(r['idempotency_key']),
    threshold: r['threshold'] as ChannelThreshold,
    state: r['state'] as DeliveryState,
    attempts: Number(r['attempts']),
    context: r['has_notification'] === true ? contextOf(r) : null,
    installation: r['has_plugin'] === true ? installationOf(r) : null,
  };
}

function contextOf(r: Row): DeliveryContext {
  return {
    kind: r['kind'] as NotificationKind,
    counts: r['counts'] as NotificationCounts,
    items: r['items'] as NotificationItem[],
    sealedAt: (r['sealed_at'] as Date | null) ?? (r['opened_at'] as Date),
    project: { id: String(r['project_id']), name: String(r['project_name']) },
    channelSettings: (r['channel_settings'] as Record<string, unknown> | null) ?? null,
    channelSecretSettings: (r['channel_secret_settings'] as string | null) ?? null,
  };
}

function installationOf(r: Row): ClaimedInstallation {
  return {
    catalogPluginId: String(r['catalog_plugin_id']),
    enabled: r['enabled'] === true,
    capabilities: (r['capabilities'] as string[] | null) ?? [],
    artifactSha256: String(r['artifact_sha256']),
    manifest: r['manifest'] as Buffer,
    settings: (r['plugin_settings'] as Record<string, unknown> | null) ?? {},
    secretSettings: (r['plugin_secret_settings'] as string | null) ?? null,
  };
}
