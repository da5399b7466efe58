import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Projects (with remediation settings), project members, products, reports and findings.
 * `findings` keeps 15 % free space per page so that re-ingesting a report (last seen, sources)
 * can use HOT updates, which skip the index writes.
 */
export class ProjectsReportsFindings1763900000000 implements MigrationInterface {
  name = 'ProjectsReportsFindings1763900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "projects" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(200) NOT NULL, "description" text, "sla_critical_days" integer DEFAULT '7', "sla_high_days" integer DEFAULT '14', "sla_medium_days" integer DEFAULT '30', "sla_low_days" integer DEFAULT '90', "sla_info_days" integer, "auto_verify_fixes" boolean NOT NULL DEFAULT false, "created_by_user_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6271df0a7aed1d6c0691ce6ac50" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_projects_name" ON "projects"  ("name")`);
    await queryRunner.query(
      `CREATE TABLE "products" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "project_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "description" text, "repository_url" text, "repository_key" text, "scan_enabled" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0806c755e0aca124e67c0cf6d7d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_products_repository_key" ON "products"  ("repository_key")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_products_scan_enabled" ON "products"  ("scan_enabled")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_products_project_id_name" ON "products"  ("project_id", "name")`,
    );
    await queryRunner.query(
      `CREATE TABLE "findings" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "product_id" uuid NOT NULL, "project_id" uuid NOT NULL, "identity_hash" character(64) NOT NULL, "identity_kind" character varying(16) NOT NULL, "rule_id" text NOT NULL, "rule_name" text, "title" text NOT NULL, "description" text NOT NULL, "severity" character varying(8) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'new', "status_changed_at" TIMESTAMP WITH TIME ZONE, "baseline_state" character varying(16), "kind" character varying(16) NOT NULL DEFAULT 'fail', "suppressed" boolean NOT NULL DEFAULT false, "host" text, "ip" text, "port" integer, "protocol" character varying(16), "service" text, "url" text, "file_path" text, "start_line" integer, "end_line" integer, "snippet" text, "logical_location" text, "cve" character varying(64), "cwe" text array NOT NULL DEFAULT '{}', "component" text, "component_version" text, "score" real, "scanner" character varying(200) NOT NULL, "scanner_version" text, "revision" text, "report_tags" text array NOT NULL DEFAULT '{}', "tags" text array NOT NULL DEFAULT '{}', "enrichment_tags" text array NOT NULL DEFAULT '{}', "sla_days" integer, "fingerprints" jsonb NOT NULL DEFAULT '{}', "properties" jsonb NOT NULL DEFAULT '{}', "sources" jsonb NOT NULL DEFAULT '{}', "first_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "first_report_id" uuid, "last_report_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ae9807d6293c23c13ff8804d09c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`ALTER TABLE "findings" SET (fillfactor = 85)`);
    await queryRunner.query(
      `CREATE INDEX "ix_findings_severity_status_id" ON "findings"  ("severity", "status", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_findings_project_id_id" ON "findings"  ("project_id", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_findings_product_id_id" ON "findings"  ("product_id", "id")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_findings_product_id_identity_hash" ON "findings"  ("product_id", "identity_hash")`,
    );
    await queryRunner.query(
      `CREATE TABLE "project_members" ("project_id" uuid NOT NULL, "user_id" uuid NOT NULL, "role" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b3f491d3a3f986106d281d8eb4b" PRIMARY KEY ("project_id", "user_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_project_members_user_id" ON "project_members"  ("user_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "reports" ("id" uuid NOT NULL, "product_id" uuid NOT NULL, "project_id" uuid NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "requested_format" character varying(16), "format" character varying(16), "engine" character varying(200), "engine_version" character varying(100), "commit_id" character varying(200), "verify_fixes" boolean NOT NULL DEFAULT false, "file_name" character varying(255) NOT NULL, "storage_key" text NOT NULL, "size_bytes" bigint NOT NULL DEFAULT '0', "uploaded_by_kind" character varying(16) NOT NULL, "uploaded_by_id" uuid NOT NULL, "scanner" character varying(200), "scanner_version" character varying(100), "processed_batches" integer NOT NULL DEFAULT '0', "results_total" integer NOT NULL DEFAULT '0', "new_count" integer NOT NULL DEFAULT '0', "updated_count" integer NOT NULL DEFAULT '0', "renewed_count" integer NOT NULL DEFAULT '0', "failure_code" character varying(64), "failure_reason" text, "cancel_requested_at" TIMESTAMP WITH TIME ZONE, "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d9013193989303580053c0b5ef6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_reports_product_id_created_at" ON "reports"  ("product_id", "created_at")`,
    );
    await queryRunner.query(
      `ALTER TABLE "products" ADD CONSTRAINT "FK_e319358957a50b1f27ea87a5733" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "findings" ADD CONSTRAINT "FK_2a89e5d6a25c233455773aa1d47" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_members" ADD CONSTRAINT "FK_b5729113570c20c7e214cf3f58d" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_members" ADD CONSTRAINT "FK_e89aae80e010c2faa72e6a49ce8" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "reports" ADD CONSTRAINT "FK_0ba6a2ea28e6e64af44e4e1cc6d" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(): Promise<void> {
    throw new Error('migrations are forward-only: restore a database backup to roll back');
  }
}
