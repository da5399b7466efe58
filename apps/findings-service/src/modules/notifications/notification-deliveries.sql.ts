/** SQL of the deliveries (outbox) — claim, finish, fan-out, the routes' reads. */

/** Enabled channels of `$1` projects: the channel config and the plugin are both enabled. */
export const ENABLED_CHANNELS_SQL = `SELECT c.project_id::text AS project_id,
    c.installed_plugin_id::text AS installed_plugin_id, c.settings
  FROM project_channel_configs c JOIN installed_plugins p ON p.id = c.installed_plugin_id
  WHERE c.project_id = ANY($1::uuid[]) AND p.enabled
    AND 'notification_channel' = ANY(p.capabilities) AND c.settings -> 'enabled' = 'true'::jsonb`;

/** New deliveries, `$1..$5` parallel arrays (id, notification, project, plugin, threshold). */
export const INSERT_DELIVERIES_SQL = `INSERT INTO notification_deliveries
  (id, notification_id, project_id, installed_plugin_id, idempotency_key, threshold, state,
   attempts, next_attempt_at, created_at, updated_at)
  SELECT d.id, d.notification_id, d.project_id, d.plugin_id,
         'ntf:' || d.notification_id || ':' || d.plugin_id, d.threshold, 'pending', 0,
         now(), now(), now()
    FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::jsonb[])
      AS d(id, notification_id, project_id, plugin_id, threshold)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id::text AS id, attempts`;

/**
 * The claim (§1.5) and everything the attempt reads, in one statement: due pending deliveries,
 * or ones whose lease expired (their worker died), with their notification, project, the
 * project's channel configuration and the installation (docs/findings-service/notifications.md,
 * "Reads per delivery"). The joins are LEFT: a removed config or installation reads as null.
 * `$1` ids (the claims of concurrent jobs share the statement), `$2` lease owner, `$3` lease
 * seconds. A row that is not due or is held by another worker is not returned.
 */
export const CLAIM_SQL = `WITH claimed AS (
    UPDATE notification_deliveries d SET state = 'delivering',
      lease_owner = $2, lease_until = now() + make_interval(secs => $3), updated_at = now()
    WHERE d.id = ANY($1::uuid[]) AND ((d.state = 'pending' AND d.next_attempt_at <= now())
      OR (d.state = 'delivering' AND d.lease_until < now()))
    RETURNING d.id, d.notification_id, d.project_id, d.installed_plugin_id, d.idempotency_key,
      d.threshold, d.state, d.attempts)
  SELECT d.id::text AS id, d.notification_id::text AS notification_id,
    d.project_id::text AS project_id, d.installed_plugin_id::text AS installed_plugin_id,
    d.idempotency_key, d.threshold, d.state, d.attempts,
    (n.id IS NOT NULL AND pj.id IS NOT NULL) AS has_notification, n.kind, n.counts, n.items, n.sealed_at, n.opened_at,
    pj.name AS project_name, c.settings AS channel_settings,
    c.secret_settings AS channel_secret_settings,
    p.id IS NOT NULL AS has_plugin, p.catalog_plugin_id, p.enabled, p.capabilities,
    p.artifact_sha256, p.manifest, p.settings AS plugin_settings,
    p.secret_settings AS plugin_secret_settings
  FROM claimed d
  LEFT JOIN notifications n ON n.id = d.notification_id
  LEFT JOIN projects pj ON pj.id = n.project_id
  LEFT JOIN project_channel_configs c
    ON c.project_id = n.project_id AND c.installed_plugin_id = d.installed_plugin_id
  LEFT JOIN installed_plugins p ON p.id = d.installed_plugin_id`;

/**
 * Finishes as delivered (only while this worker holds the lease): `$1` ids, `$2` their
 * results (jsonb text), `$3` the lease owner; answers the ids it finished. The finishes of
 * concurrent attempts share the statement.
 */
export const FINISH_DELIVERED_SQL = `UPDATE notification_deliveries d SET state = 'delivered',
    delivered_at = now(), updated_at = now(), result = f.result, attempts = d.attempts + 1,
    lease_owner = NULL, lease_until = NULL, last_error_code = NULL, last_error_message = NULL
  FROM unnest($1::uuid[], $2::jsonb[]) AS f(id, result)
  WHERE d.id = f.id AND d.lease_owner = $3 AND d.state = 'delivering'
  RETURNING d.id::text AS id`;

/** Finishes as failed for good: `$3` code, `$4` message, `$5` 1 when the attempt counts. */
export const FINISH_FAILED_SQL = `UPDATE notification_deliveries SET state = 'failed',
    updated_at = now(), attempts = attempts + $5, last_error_code = $3, last_error_message = $4,
    lease_owner = NULL, lease_until = NULL
  WHERE id = $1 AND lease_owner = $2 AND state = 'delivering' RETURNING attempts`;

/** Finishes as cancelled (channel or plugin disabled, project config gone). */
export const FINISH_CANCELLED_SQL = `UPDATE notification_deliveries SET state = 'cancelled',
    updated_at = now(), last_error_code = $3, last_error_message = $4,
    lease_owner = NULL, lease_until = NULL
  WHERE id = $1 AND lease_owner = $2 AND state = 'delivering' RETURNING attempts`;

/**
 * Back to pending for a later attempt: `$3` delay seconds, `$4` 1 when the attempt counts,
 * `$5` code, `$6` message.
 */
export const FINISH_RETRY_SQL = `UPDATE notification_deliveries SET state = 'pending',
    updated_at = now(), attempts = attempts + $4,
    next_attempt_at = now() + make_interval(secs => $3), last_error_code = $5,
    last_error_message = $6, lease_owner = NULL, lease_until = NULL
  WHERE id = $1 AND lease_owner = $2 AND state = 'delivering' RETURNING attempts`;

/**
 * The reconciler's rows: pending ones due more than `$1` s ago and delivering ones whose lease
 * expired, at most `$2`.
 */
export const STRANDED_SQL = `SELECT id::text AS id, attempts, state,
    (EXTRACT(EPOCH FROM lease_until) * 1000)::bigint::text AS lease_until_ms
  FROM notification_deliveries
  WHERE (state = 'pending' AND next_attempt_at < now() - make_interval(secs => $1))
     OR (state = 'delivering' AND lease_until < now())
  ORDER BY next_attempt_at LIMIT $2`;
