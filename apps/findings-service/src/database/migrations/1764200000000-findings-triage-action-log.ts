import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Findings API: triage columns (assignee, comment, risk-acceptance and waiting dates), the
 * list indexes (keyset on created_at and on severity rank) and the action log.
 *
 * Only columns that ingestion never updates are indexed, so re-ingesting a report keeps its
 * HOT updates (no `last_seen_at` index). No trigram index: text search stays off the
 * ingestion write path (docs/findings-service/findings-api.md#performance).
 * `ix_findings_severity_rank_id` is an expression index: the entity declares it with
 * `synchronize: false` and the list query uses the identical expression (SEVERITY_RANK_SQL).
 */
export class FindingsTriageActionLog1764200000000 implements MigrationInterface {
  name = 'FindingsTriageActionLog1764200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "findings" ADD "assignee_id" uuid, ADD "triage_comment" text, ADD "risk_accepted_until" TIMESTAMP WITH TIME ZONE, ADD "waiting_reason" text, ADD "waiting_until" TIMESTAMP WITH TIME ZONE`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_findings_created_at_id" ON "findings"  ("created_at", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_findings_severity_rank_id" ON "findings" ((CASE "severity" WHEN 'CRITICAL' THEN 5 WHEN 'HIGH' THEN 4 WHEN 'MEDIUM' THEN 3 WHEN 'LOW' THEN 2 ELSE 1 END), "id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_actions" ("id" BIGSERIAL NOT NULL, "finding_id" uuid NOT NULL, "project_id" uuid NOT NULL, "actor_type" character varying(16) NOT NULL, "actor_id" uuid, "actor_label" text, "action" character varying(32) NOT NULL, "from_value" jsonb, "to_value" jsonb, "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_finding_actions_id" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_actions_finding_id_id" ON "finding_actions"  ("finding_id", "id")`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}
