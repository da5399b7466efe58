import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tickets in an external tracker (issue 27, docs/findings-service/tickets.md): the tasks the
 * service knows, which finding each belongs to (one ticket per finding), a project's ticketing
 * settings with its webhook secret hashes, and the history backfills.
 */
export class Tickets1795605600000 implements MigrationInterface {
  name = 'Tickets1795605600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "tickets" ("id" uuid NOT NULL, "project_id" uuid NOT NULL, "installed_plugin_id" uuid NOT NULL, "task_id" character varying(200) NOT NULL, "task_key" character varying(200) NOT NULL, "url" text NOT NULL, "status" character varying(16) NOT NULL, "raw_status" character varying(200) NOT NULL DEFAULT '', "origin" character varying(16) NOT NULL, "label" character varying(64) NOT NULL, "created_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "status_synced_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_tickets_task" UNIQUE ("installed_plugin_id", "task_id"), CONSTRAINT "PK_tickets" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IX_tickets_project" ON "tickets" ("project_id") `);
    await queryRunner.query(
      `ALTER TABLE "tickets" ADD CONSTRAINT "FK_tickets_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tickets" ADD CONSTRAINT "FK_tickets_installed_plugin" FOREIGN KEY ("installed_plugin_id") REFERENCES "installed_plugins"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_tickets" ("finding_id" uuid NOT NULL, "ticket_id" uuid NOT NULL, "linked_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "linked_by" uuid, CONSTRAINT "PK_finding_tickets" PRIMARY KEY ("finding_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IX_finding_tickets_ticket" ON "finding_tickets" ("ticket_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "finding_tickets" ADD CONSTRAINT "FK_finding_tickets_finding" FOREIGN KEY ("finding_id") REFERENCES "findings"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "finding_tickets" ADD CONSTRAINT "FK_finding_tickets_ticket" FOREIGN KEY ("ticket_id") REFERENCES "tickets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "project_ticket_settings" ("project_id" uuid NOT NULL, "installed_plugin_id" uuid NOT NULL, "default_target" character varying(200), "tracker_closed_action" character varying(16) NOT NULL DEFAULT 'none', "sync_status_to_tracker" boolean NOT NULL DEFAULT true, "webhook_secret_hash" bytea, "webhook_rotated_at" TIMESTAMP WITH TIME ZONE, "previous_secret_hash" bytea, "previous_valid_until" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_project_ticket_settings" PRIMARY KEY ("project_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_ticket_settings" ADD CONSTRAINT "FK_project_ticket_settings_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_ticket_settings" ADD CONSTRAINT "FK_project_ticket_settings_installed_plugin" FOREIGN KEY ("installed_plugin_id") REFERENCES "installed_plugins"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "ticket_backfills" ("id" character varying(64) NOT NULL, "project_id" uuid NOT NULL, "mode" character varying(16) NOT NULL, "state" character varying(16) NOT NULL, "total" integer NOT NULL DEFAULT 0, "done" integer NOT NULL DEFAULT 0, "linked" integer NOT NULL DEFAULT 0, "created" integer NOT NULL DEFAULT 0, "skipped" integer NOT NULL DEFAULT 0, "failed" integer NOT NULL DEFAULT 0, "cursor" uuid, "started_by" uuid, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_ticket_backfills" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_ticket_backfills_running" ON "ticket_backfills" ("project_id") WHERE state = 'running'`,
    );
    await queryRunner.query(
      `ALTER TABLE "ticket_backfills" ADD CONSTRAINT "FK_ticket_backfills_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}
