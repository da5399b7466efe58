import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Suppression rules (issue 28, docs/findings-service/suppression.md): the rules of a project
 * with the state of their last run, the rules' own action log, and on each finding the rule
 * that suppressed it and when (a small partial index finds a rule's findings for a release).
 * Ingestion writes the new finding columns on insert only, so its re-sighting updates stay HOT.
 */
export class SuppressionRules1795606400000 implements MigrationInterface {
  name = 'SuppressionRules1795606400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "suppression_rules" ("id" uuid NOT NULL, "project_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "query" character varying(1000) NOT NULL, "reason" character varying(2000), "enabled" boolean NOT NULL DEFAULT true, "created_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "run_job_id" character varying(64), "run_state" character varying(16), "run_total" integer NOT NULL DEFAULT 0, "run_done" integer NOT NULL DEFAULT 0, "run_matched" integer NOT NULL DEFAULT 0, "run_started_at" TIMESTAMP WITH TIME ZONE, "run_finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_suppression_rules" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_suppression_rules_project_id" ON "suppression_rules" ("project_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "suppression_rules" ADD CONSTRAINT "FK_suppression_rules_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "suppression_rule_actions" ("id" BIGSERIAL NOT NULL, "rule_id" uuid NOT NULL, "project_id" uuid NOT NULL, "actor_type" character varying(16) NOT NULL, "actor_id" uuid, "actor_label" text, "action" character varying(32) NOT NULL, "from_value" jsonb, "to_value" jsonb, "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_suppression_rule_actions_id" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_suppression_rule_actions_rule_id_id" ON "suppression_rule_actions" ("rule_id", "id") `,
    );
    await queryRunner.query(`ALTER TABLE "findings" ADD "suppression_rule_id" uuid`);
    await queryRunner.query(`ALTER TABLE "findings" ADD "suppressed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "ix_findings_suppression_rule_id" ON "findings" ("suppression_rule_id") WHERE "suppression_rule_id" IS NOT NULL`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}
