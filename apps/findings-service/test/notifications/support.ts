import { DataSource } from 'typeorm';
import type { NotificationItem } from '../../src/modules/notifications/notification-filter';
import type { TestApp } from '../support/test-app';

const db = (t: TestApp) => t.app.get(DataSource);

/** A channel plugin row as the install lifecycle stores it (sideloaded, enabled). */
export async function seedChannelPlugin(
  t: TestApp,
  catalogId: string,
  options: { enabled?: boolean; artifactSha256?: string; manifest?: Buffer } = {},
): Promise<string> {
  const sha = options.artifactSha256 ?? 'a'.repeat(64);
  const manifest =
    options.manifest ??
    Buffer.from(
      JSON.stringify({
        id: catalogId,
        version: '1.0.0',
        capabilities: ['notification_channel'],
        runtime: 'native',
        wit_version: '0.1.0',
        min_service_version: '>=0.33',
        allowed_hosts: [],
        settings: [],
        artifact_sha256: sha,
      }),
    );
  const [row] = (await db(t).query(
    `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
            artifact_sha256, manifest, capabilities)
     VALUES ('sideload', $1, 'native', $2, '1.0.0', $3, $4, '{notification_channel}')
     RETURNING id`,
    [catalogId, options.enabled ?? true, sha, manifest],
  )) as { id: string }[];
  return row!.id;
}

/** A project's channel settings, stored as the config route stores them. */
export async function configureChannel(
  t: TestApp,
  projectId: string,
  pluginId: string,
  settings: Record<string, unknown>,
): Promise<void> {
  await db(t).query(
    `INSERT INTO project_channel_configs (project_id, installed_plugin_id, settings, origin, updated_at)
     VALUES ($1, $2, $3, 'api', now())
     ON CONFLICT (project_id, installed_plugin_id) DO UPDATE SET settings = EXCLUDED.settings`,
    [projectId, pluginId, JSON.stringify(settings)],
  );
}

export interface StoredNotification {
  id: string;
  kind: string;
  state: string;
  source_key: string | null;
  counts: Record<string, number>;
  items: NotificationItem[];
  finding_count: number;
}

export async function notificationsOf(
  t: TestApp,
  projectId: string,
): Promise<StoredNotification[]> {
  return (await db(t).query(
    `SELECT id::text AS id, kind, state, source_key, counts, items, finding_count
       FROM notifications WHERE project_id = $1 ORDER BY opened_at, id`,
    [projectId],
  )) as StoredNotification[];
}

export interface StoredDelivery {
  id: string;
  notification_id: string;
  installed_plugin_id: string;
  idempotency_key: string;
  state: string;
  attempts: number;
  last_error_code: string | null;
  last_error_message: string | null;
  threshold: Record<string, unknown>;
  result: Record<string, unknown> | null;
}

export async function deliveriesOf(t: TestApp, projectId: string): Promise<StoredDelivery[]> {
  return (await db(t).query(
    `SELECT id::text AS id, notification_id::text AS notification_id,
            installed_plugin_id::text AS installed_plugin_id, idempotency_key, state, attempts,
            last_error_code, last_error_message, threshold, result
       FROM notification_deliveries WHERE project_id = $1 ORDER BY created_at, id`,
    [projectId],
  )) as StoredDelivery[];
}

/** A SARIF log with `levels.length` results, result i at `levels[i]` (error = HIGH, note = LOW). */
export function sarifWithLevels(levels: string[], tool = 'NotifyScanner'): string {
  const rules = levels.map((level, i) => ({
    id: `NTF${i}`,
    shortDescription: { text: `Rule ${i}` },
    defaultConfiguration: { level },
  }));
  const results = levels.map((level, i) => ({
    ruleId: `NTF${i}`,
    level,
    message: { text: `Problem ${i}` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: `src/file${i}.ts` },
          region: { startLine: i + 1 },
        },
      },
    ],
    partialFingerprints: { primaryLocationLineHash: `n${i}-${tool}` },
  }));
  return JSON.stringify({
    version: '2.1.0',
    runs: [{ tool: { driver: { name: tool, rules } }, results }],
  });
}
