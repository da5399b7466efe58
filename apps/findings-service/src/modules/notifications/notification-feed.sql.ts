/** SQL of the feed task (notification-feed.service.ts); every statement runs in its transaction. */

/** Enabled channels of enabled channel plugins, by project (`c`). */
const ENABLED_CHANNELS = `project_channel_configs c JOIN installed_plugins p ON p.id = c.installed_plugin_id
  WHERE p.enabled AND 'notification_channel' = ANY(p.capabilities)
    AND c.settings -> 'enabled' = 'true'::jsonb`;

/** Projects among `$1` with at least one enabled channel of an enabled channel plugin. */
export const PROJECTS_WITH_CHANNELS_SQL = `SELECT DISTINCT c.project_id::text AS project_id
  FROM ${ENABLED_CHANNELS} AND c.project_id = ANY($1::uuid[])`;

/**
 * Projects with an enabled channel, any of them, at most `$1` (the notification feed reads
 * only their entries).
 */
export const PROJECTS_WITH_ANY_CHANNEL_SQL = `SELECT DISTINCT c.project_id::text AS project_id
  FROM ${ENABLED_CHANNELS} LIMIT $1`;

/** The findings the entries name, with what a notification keeps of them (`$1` ids). */
export const FEED_FINDINGS_SQL = `SELECT f.id::text AS id, f.project_id::text AS project_id,
    left(f.title, 300) AS title, f.severity, f.status, f.product_id::text AS product_id,
    pr.name AS product, f.file_path, f.start_line, f.host, f.port, f.url, f.sla_due_at
  FROM findings f JOIN products pr ON pr.id = f.product_id
  WHERE f.id = ANY($1::uuid[]) AND f.merged_into_id IS NULL
    AND f.suppression_rule_id IS NULL`;

/** The open drafts of `$1` projects, locked. */
export const DRAFTS_SQL = `SELECT id::text AS id, project_id::text AS project_id, kind, counts, items
  FROM notifications WHERE state = 'collecting' AND project_id = ANY($1::uuid[]) FOR UPDATE`;

/** A new draft: `$1` id, `$2` project, `$3` kind, `$4` counts, `$5` items, `$6` count. */
export const INSERT_DRAFT_SQL = `INSERT INTO notifications
  (id, project_id, kind, state, counts, items, finding_count, opened_at, last_added_at)
  VALUES ($1, $2, $3, 'collecting', $4::jsonb, $5::jsonb, $6, now(), now())`;

/** Findings added to a draft: `$1` id, `$2` counts, `$3` items, `$4` added. */
export const UPDATE_DRAFT_SQL = `UPDATE notifications SET counts = $2::jsonb, items = $3::jsonb,
  finding_count = finding_count + $4, last_added_at = now() WHERE id = $1`;

/**
 * Seals the drafts that are quiet (`$1` s), open too long (`$2` s) or full (`$3` findings);
 * returns them for the fan-out.
 */
export const SEAL_DRAFTS_SQL = `UPDATE notifications SET state = 'sealed', sealed_at = now()
  WHERE state = 'collecting' AND (last_added_at < now() - make_interval(secs => $1)
    OR opened_at < now() - make_interval(secs => $2) OR finding_count >= $3)
  RETURNING id::text AS id, project_id::text AS project_id, kind, counts, items`;

/**
 * A deadline job's notification, sealed at once: `$1` id, `$2` project, `$3` kind, `$4` source
 * key, `$5` counts, `$6` items, `$7` count. A redelivered job inserts nothing (source key).
 */
export const INSERT_SEALED_SQL = `INSERT INTO notifications
  (id, project_id, kind, state, source_key, counts, items, finding_count, opened_at,
   last_added_at, sealed_at)
  SELECT $1, $2, $3, 'sealed', $4, $5::jsonb, $6::jsonb, $7, now(), now(), now()
    WHERE EXISTS (SELECT 1 FROM projects WHERE id = $2)
  ON CONFLICT (source_key) DO NOTHING
  RETURNING id::text AS id`;
