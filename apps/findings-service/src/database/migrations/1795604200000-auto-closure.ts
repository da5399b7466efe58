import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Automatic closure and scanner re-verification (issue 23, items 2-3;
 * docs/findings-service/auto-closure.md): closure checks and their working set, the
 * consecutive-absence counters, the closures with their evidence, re-verification requests and
 * answers, the projects' re-verification endpoints and the scanners' callback keys.
 */
export class AutoClosure1795604200000 implements MigrationInterface {
  name = 'AutoClosure1795604200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "auto_closure_checks" ("report_id" uuid NOT NULL, "project_id" uuid NOT NULL, "product_id" uuid NOT NULL, "state" character varying(16) NOT NULL, "reason" character varying(32), "attempts_done" integer NOT NULL DEFAULT '0', "candidates" integer NOT NULL DEFAULT '0', "absent" integer NOT NULL DEFAULT '0', "present" integer NOT NULL DEFAULT '0', "undetermined" integer NOT NULL DEFAULT '0', "closed" integer NOT NULL DEFAULT '0', "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_auto_closure_checks" PRIMARY KEY ("report_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_auto_closure_checks_product_id" ON "auto_closure_checks" ("product_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "auto_closure_candidates" ("report_id" uuid NOT NULL, "finding_id" uuid NOT NULL, "result" character varying(16) NOT NULL DEFAULT 'absent', "project_id" uuid NOT NULL, "product_id" uuid NOT NULL, "scanner" character varying(200) NOT NULL, "seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "seen_report_id" uuid, CONSTRAINT "PK_auto_closure_candidates" PRIMARY KEY ("report_id", "finding_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_absences" ("finding_id" uuid NOT NULL, "project_id" uuid NOT NULL, "product_id" uuid NOT NULL, "scanner" character varying(200) NOT NULL, "streak" integer NOT NULL DEFAULT '0', "streak_started_at" TIMESTAMP WITH TIME ZONE, "basis_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "check_reports" uuid array NOT NULL DEFAULT '{}', "last_result" character varying(16) NOT NULL, "last_report_id" uuid NOT NULL, "last_check_at" TIMESTAMP WITH TIME ZONE NOT NULL, "confirmation" character varying(16), "confirmation_at" TIMESTAMP WITH TIME ZONE, "confirmation_id" uuid, "requested_at" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_finding_absences" PRIMARY KEY ("finding_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_absences_project_id_streak" ON "finding_absences" ("project_id", "streak") `,
    );
    await queryRunner.query(
      `CREATE TABLE "auto_closures" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "finding_id" uuid NOT NULL, "project_id" uuid NOT NULL, "closed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "evidence" jsonb NOT NULL, CONSTRAINT "PK_auto_closures" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_auto_closures_finding_id" ON "auto_closures" ("finding_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_auto_closures_project_id_closed_at" ON "auto_closures" ("project_id", "closed_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_verifications" ("id" uuid NOT NULL, "finding_id" uuid NOT NULL, "project_id" uuid NOT NULL, "origin" character varying(16) NOT NULL, "state" character varying(16) NOT NULL, "requested_by_type" character varying(16), "requested_by_id" uuid, "requested_by_label" text, "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL, "delivery_error" character varying(64), "result" character varying(16), "answered_at" TIMESTAMP WITH TIME ZONE, "answered_key_id" character varying(32), "scanner" character varying(200), "details" text, CONSTRAINT "PK_finding_verifications" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_verifications_finding_id_requested_at" ON "finding_verifications" ("finding_id", "requested_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "verification_endpoints" ("project_id" uuid NOT NULL, "url" text NOT NULL, "secret_sealed" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_verification_endpoints" PRIMARY KEY ("project_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "scanner_callback_keys" ("id" uuid NOT NULL, "key_id" character varying(32) NOT NULL, "name" character varying(200) NOT NULL, "project_id" uuid, "secret_sealed" text NOT NULL, "created_by_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE, "retired_at" TIMESTAMP WITH TIME ZONE, "replaced_by" uuid, "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_scanner_callback_keys" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_scanner_callback_keys_key_id" ON "scanner_callback_keys" ("key_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_closure_checks" ADD CONSTRAINT "FK_auto_closure_checks_report" FOREIGN KEY ("report_id") REFERENCES "reports"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "finding_absences" ADD CONSTRAINT "FK_finding_absences_finding" FOREIGN KEY ("finding_id") REFERENCES "findings"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "finding_verifications" ADD CONSTRAINT "FK_finding_verifications_finding" FOREIGN KEY ("finding_id") REFERENCES "findings"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "verification_endpoints" ADD CONSTRAINT "FK_verification_endpoints_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scanner_callback_keys" ADD CONSTRAINT "FK_scanner_callback_keys_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}
