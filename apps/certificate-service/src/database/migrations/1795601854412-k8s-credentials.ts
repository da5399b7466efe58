import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issued Kubernetes credentials (one row per broker call): the caller's device holds the
 * `k8s` purpose seat while one of its credentials is unexpired.
 */
export class K8sCredentials1795601854412 implements MigrationInterface {
  name = 'K8sCredentials1795601854412';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "k8s_credentials" ("serial" character varying(40) NOT NULL, "cluster_id" uuid NOT NULL, "device_id" uuid NOT NULL, "user_identity" character varying(320) NOT NULL, "caller_serial" character varying(40) NOT NULL, "not_after" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dad2c00f3878e81e3b263566ab0" PRIMARY KEY ("serial"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_7feb9b017efdb3c5623eedecf9" ON "k8s_credentials" ("not_after") `,
    );
    await q.query(
      `CREATE INDEX "IDX_a35dfd4ac2c548190ce9ff7c21" ON "k8s_credentials" ("device_id", "not_after") `,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}
