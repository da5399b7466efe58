import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The scan perimeter (issue 23, item 4; docs/findings-service/scope.md): a project's entries,
 * the scanners' proposals awaiting a decision, and the discovered domain <-> IP inventory.
 */
export class ScanPerimeter1795604100000 implements MigrationInterface {
  name = 'ScanPerimeter1795604100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scope_entries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "seq" BIGSERIAL NOT NULL, "project_id" uuid NOT NULL, "mode" character varying(8) NOT NULL, "kind" character varying(16) NOT NULL, "value" character varying(300) NOT NULL, "comment" text, "origin" character varying(16) NOT NULL, "origin_ref" character varying(200), "created_by_type" character varying(16) NOT NULL, "created_by_id" uuid, "created_by_label" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_scope_entries" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_scope_entries_project_id_seq" ON "scope_entries" ("project_id", "seq")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_scope_entries_project_id_value" ON "scope_entries" ("project_id", "value")`,
    );
    await queryRunner.query(
      `CREATE TABLE "scope_proposals" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "project_id" uuid NOT NULL, "value" character varying(300) NOT NULL, "kind" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "comment" text, "proposed_by_type" character varying(16) NOT NULL, "proposed_by_id" uuid, "proposed_by_label" text, "times_proposed" integer NOT NULL DEFAULT '1', "first_proposed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_proposed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "decided_at" TIMESTAMP WITH TIME ZONE, "decided_by_type" character varying(16), "decided_by_id" uuid, "decided_by_label" text, "decision_comment" text, "entry_id" uuid, CONSTRAINT "PK_scope_proposals" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_scope_proposals_project_id_status_first_proposed_at_id" ON "scope_proposals" ("project_id", "status", "first_proposed_at", "id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_scope_proposals_project_id_value" ON "scope_proposals" ("project_id", "value")`,
    );
    await queryRunner.query(
      `CREATE TABLE "scope_assets" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "project_id" uuid NOT NULL, "domain" character varying(253) NOT NULL, "ip" character varying(45) NOT NULL, "first_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "resolving" boolean NOT NULL DEFAULT true, "stopped_resolving_at" TIMESTAMP WITH TIME ZONE, "resumed_resolving_at" TIMESTAMP WITH TIME ZONE, "reported_by_label" text, CONSTRAINT "PK_scope_assets" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_scope_assets_project_id_last_seen_at_id" ON "scope_assets" ("project_id", "last_seen_at", "id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_scope_assets_project_id_domain_ip" ON "scope_assets" ("project_id", "domain", "ip")`,
    );
    await queryRunner.query(
      `ALTER TABLE "scope_entries" ADD CONSTRAINT "FK_scope_entries_project_id" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scope_proposals" ADD CONSTRAINT "FK_scope_proposals_project_id" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scope_proposals" ADD CONSTRAINT "FK_scope_proposals_entry_id" FOREIGN KEY ("entry_id") REFERENCES "scope_entries"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scope_assets" ADD CONSTRAINT "FK_scope_assets_project_id" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('forward-only migrations: restore a backup to roll back');
  }
}
