import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TrackerClosedAction } from './tickets.entities';

/** A project's ticketing settings as stored (secret hashes included: never shown). */
export interface StoredTicketSettings {
  projectId: string;
  pluginId: string;
  defaultTarget: string | null;
  trackerClosedAction: TrackerClosedAction;
  syncStatusToTracker: boolean;
  webhookSecretHash: Buffer | null;
  webhookRotatedAt: Date | null;
  previousSecretHash: Buffer | null;
  previousValidUntil: Date | null;
}

interface Row {
  project_id: string;
  installed_plugin_id: string;
  default_target: string | null;
  tracker_closed_action: TrackerClosedAction;
  sync_status_to_tracker: boolean;
  webhook_secret_hash: Buffer | null;
  webhook_rotated_at: Date | null;
  previous_secret_hash: Buffer | null;
  previous_valid_until: Date | null;
}

const stored = (r: Row): StoredTicketSettings => ({
  projectId: r.project_id,
  pluginId: r.installed_plugin_id,
  defaultTarget: r.default_target,
  trackerClosedAction: r.tracker_closed_action,
  syncStatusToTracker: r.sync_status_to_tracker,
  webhookSecretHash: r.webhook_secret_hash,
  webhookRotatedAt: r.webhook_rotated_at,
  previousSecretHash: r.previous_secret_hash,
  previousValidUntil: r.previous_valid_until,
});

/** `project_ticket_settings`: one row per project that chose a ticket provider. */
@Injectable()
export class TicketSettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async get(projectId: string): Promise<StoredTicketSettings | null> {
    const rows = (await this.dataSource.query(
      `SELECT * FROM project_ticket_settings WHERE project_id = $1`,
      [projectId],
    )) as Row[];
    return rows[0] ? stored(rows[0]) : null;
  }

  /** Chooses the provider and its options; the webhook secrets stay as they are. */
  async save(input: {
    projectId: string;
    pluginId: string;
    defaultTarget: string | null;
    trackerClosedAction: TrackerClosedAction;
    syncStatusToTracker: boolean;
  }): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO project_ticket_settings
              (project_id, installed_plugin_id, default_target, tracker_closed_action,
               sync_status_to_tracker, updated_at)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (project_id) DO UPDATE SET
              installed_plugin_id = EXCLUDED.installed_plugin_id,
              default_target = EXCLUDED.default_target,
              tracker_closed_action = EXCLUDED.tracker_closed_action,
              sync_status_to_tracker = EXCLUDED.sync_status_to_tracker,
              updated_at = now()`,
      [
        input.projectId,
        input.pluginId,
        input.defaultTarget,
        input.trackerClosedAction,
        input.syncStatusToTracker,
      ],
    );
  }

  /**
   * A new current secret hash; the one it replaces stays valid `graceSeconds` (none when no
   * secret had been issued). Null when the project has no ticketing settings.
   */
  async rotate(
    projectId: string,
    hash: Buffer,
    graceSeconds: number,
  ): Promise<{ rotatedAt: Date; previousValidUntil: Date | null } | null> {
    const rows = (await this.dataSource.query(
      `UPDATE project_ticket_settings SET
              previous_secret_hash = webhook_secret_hash,
              previous_valid_until = CASE WHEN webhook_secret_hash IS NULL THEN NULL
                                          ELSE now() + make_interval(secs => $3) END,
              webhook_secret_hash = $2,
              webhook_rotated_at = now(),
              updated_at = now()
        WHERE project_id = $1
        RETURNING webhook_rotated_at, previous_valid_until`,
      [projectId, hash, graceSeconds],
    )) as [{ webhook_rotated_at: Date; previous_valid_until: Date | null }[], number];
    const row = rows[0]?.[0];
    return row
      ? { rotatedAt: row.webhook_rotated_at, previousValidUntil: row.previous_valid_until }
      : null;
  }
}
