import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lifecycle and remediation deadlines (docs/findings-service/lifecycle.md): the SLA clock of a
 * finding (started, stop moment, idle milliseconds, deadline), the deadline violations, and the
 * partial indexes of the hourly check, the expiry tasks and the remediation figures.
 *
 * Only columns ingestion never updates are indexed, so its re-sighting updates stay HOT.
 * Findings already `in_progress` get a clock started at their last status change (the best
 * known moment they were taken into work).
 */
export class FindingsLifecycleSla1764720000000 implements MigrationInterface {
  name = 'FindingsLifecycleSla1764720000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "findings" ADD "sla_started_at" TIMESTAMP WITH TIME ZONE, ADD "sla_paused_at" TIMESTAMP WITH TIME ZONE, ADD "sla_idle_ms" bigint NOT NULL DEFAULT '0', ADD "sla_due_at" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `UPDATE "findings" SET "sla_started_at" = COALESCE("status_changed_at", "created_at"), "sla_due_at" = COALESCE("status_changed_at", "created_at") + ("sla_days"::bigint * 86400000 * interval '1 millisecond') WHERE "status" = 'in_progress'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_findings_sla_due_at" ON "findings" ("sla_due_at") WHERE "sla_due_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_findings_risk_accepted_until" ON "findings" ("risk_accepted_until") WHERE "status" = 'risk_accepted'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_findings_waiting_until" ON "findings" ("waiting_until") WHERE "status" = 'waiting'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_actions_closing_at" ON "finding_actions" ("at") WHERE "action" = 'status_changed' AND ("to_value" ->> 'status') IN ('fixed', 'wont_fix', 'false_positive')`,
    );
    await queryRunner.query(
      `CREATE TABLE "sla_violations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "finding_id" uuid NOT NULL, "project_id" uuid NOT NULL, "product_id" uuid NOT NULL, "severity" character varying(8) NOT NULL, "kind" character varying(16) NOT NULL, "due_at" TIMESTAMP WITH TIME ZONE NOT NULL, "opened_at" TIMESTAMP WITH TIME ZONE NOT NULL, "notified_at" TIMESTAMP WITH TIME ZONE, "resolved_at" TIMESTAMP WITH TIME ZONE, "resolution" character varying(32), "resolved_by_type" character varying(16), "resolved_by_id" uuid, "resolved_by_label" text, "resolution_comment" text, CONSTRAINT "PK_sla_violations_id" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_sla_violations_open_finding_kind" ON "sla_violations" ("finding_id", "kind") WHERE "resolved_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_sla_violations_finding_id_due_at" ON "sla_violations" ("finding_id", "due_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_sla_violations_opened_at_id" ON "sla_violations" ("opened_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_sla_violations_unnotified" ON "sla_violations" ("id") WHERE "notified_at" IS NULL AND "resolved_at" IS NULL`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}
