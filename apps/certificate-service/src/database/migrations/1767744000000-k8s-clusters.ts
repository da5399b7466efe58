import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Kubernetes cluster registry: API server URL and CA bundle, groups mapping, and the
 * client-certificate CA of each cluster (certificates in clear, private keys sealed).
 */
export class K8sClusters1767744000000 implements MigrationInterface {
  name = 'K8sClusters1767744000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "k8s_clusters" ("id" uuid NOT NULL DEFAULT uuid_generate_v4(), "name" character varying(63) NOT NULL, "server_url" character varying(2048) NOT NULL, "ca_bundle" text NOT NULL, "group_mappings" jsonb NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "client_ca_root_der" bytea NOT NULL, "client_ca_root_encrypted_key" text NOT NULL, "client_ca_issuing_der" bytea NOT NULL, "client_ca_issuing_encrypted_key" text NOT NULL, "created_by" character varying(320) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_d2e93985c627327ade70a9c441f" UNIQUE ("name"), CONSTRAINT "PK_4eeed6c1a06e26354b8de37214f" PRIMARY KEY ("id"))`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}
