import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notification delivery, its core (issue 27; docs/findings-service/notifications.md):
 * - `finding_actions.tx`: the writing transaction's 64-bit id, the order of the action-log feed.
 *   Added without a default and then given one (two statements: existing rows stay NULL, the
 *   table is not rewritten). Stored as bigint by the function `finding_action_tx()`
 *   (`pg_current_xact_id()::text::bigint`): TypeORM has no xid8 type and strips casts from the
 *   defaults it compares, and the drift check must see the entity's column; the values and
 *   their order are those of xid8. Partial index of the feed's actions;
 * - `action_feed_cursors` with the rows `notifications` and `tickets` at the current snapshot
 *   horizon (history before the deploy is never fed);
 * - `notifications` (drafts and sealed notifications) and `notification_deliveries` (outbox).
 */
export class NotificationCore1795605400000 implements MigrationInterface {
  name = 'NotificationCore1795605400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION "finding_action_tx"() RETURNS bigint LANGUAGE sql VOLATILE PARALLEL UNSAFE AS 'SELECT pg_current_xact_id()::text::bigint'`,
    );
    await queryRunner.query(`ALTER TABLE "finding_actions" ADD "tx" bigint`);
    await queryRunner.query(
      `ALTER TABLE "finding_actions" ALTER COLUMN "tx" SET DEFAULT finding_action_tx()`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_actions_feed" ON "finding_actions" ("tx") WHERE "action" IN ('created', 'status_changed')`,
    );
    await queryRunner.query(
      `CREATE TABLE "action_feed_cursors" ("consumer" character varying(32) NOT NULL, "boundary" bigint NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_action_feed_cursors" PRIMARY KEY ("consumer"))`,
    );
    await queryRunner.query(
      `INSERT INTO "action_feed_cursors" ("consumer", "boundary", "updated_at")
       SELECT c, (pg_snapshot_xmin(pg_current_snapshot()))::text::bigint, now()
         FROM unnest(ARRAY['notifications', 'tickets']) AS c`,
    );
    await queryRunner.query(
      `CREATE TABLE "notifications" ("id" uuid NOT NULL, "project_id" uuid NOT NULL, "kind" character varying(24) NOT NULL, "state" character varying(12) NOT NULL, "source_key" text, "counts" jsonb NOT NULL DEFAULT '{}', "items" jsonb NOT NULL DEFAULT '[]', "finding_count" integer NOT NULL DEFAULT '0', "opened_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_added_at" TIMESTAMP WITH TIME ZONE NOT NULL, "sealed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_notifications" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_notifications_collecting" ON "notifications" ("project_id", "kind") WHERE "state" = 'collecting'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_notifications_source_key" ON "notifications" ("source_key")`,
    );
    await queryRunner.query(
      `CREATE TABLE "notification_deliveries" ("id" uuid NOT NULL, "notification_id" uuid NOT NULL, "project_id" uuid NOT NULL, "installed_plugin_id" uuid NOT NULL, "idempotency_key" character varying(200) NOT NULL, "threshold" jsonb NOT NULL, "state" character varying(12) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "lease_owner" text, "lease_until" TIMESTAMP WITH TIME ZONE, "last_error_code" character varying(48), "last_error_message" text, "result" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "delivered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_notification_deliveries" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_deliveries_notification_id" ON "notification_deliveries" ("notification_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_deliveries_channel" ON "notification_deliveries" ("project_id", "installed_plugin_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_deliveries_due" ON "notification_deliveries" ("state", "next_attempt_at") WHERE "state" IN ('pending', 'delivering')`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_notification_deliveries_idempotency_key" ON "notification_deliveries" ("idempotency_key")`,
    );
    await queryRunner.query(
      `ALTER TABLE "notifications" ADD CONSTRAINT "FK_notifications_project_id" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_deliveries" ADD CONSTRAINT "FK_notification_deliveries_notification_id" FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_deliveries" ADD CONSTRAINT "FK_notification_deliveries_installed_plugin_id" FOREIGN KEY ("installed_plugin_id") REFERENCES "installed_plugins"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}
