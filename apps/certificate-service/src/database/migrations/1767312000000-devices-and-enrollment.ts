import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Devices, their purpose overrides and purpose requests, certificate requests, enrollment
 * nonces, fleet policies (enroll source-auth, corp-ownership) and the corp allowlist.
 */
export class DevicesAndEnrollment1767312000000 implements MigrationInterface {
  name = 'DevicesAndEnrollment1767312000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "devices" ("id" uuid NOT NULL, "serial" character varying(128) NOT NULL, "enrollment_token_hash" character varying(64) NOT NULL, "enrollment_token_rotated_at" TIMESTAMP WITH TIME ZONE, "hostname" character varying(255), "owner" character varying(320), "assigned_purposes" text array NOT NULL, "blocked" boolean NOT NULL DEFAULT false, "blocked_at" TIMESTAMP WITH TIME ZONE, "agent_version" character varying(64), "platform" character varying(32), "last_seen_at" TIMESTAMP WITH TIME ZONE, "identity_key" character varying(200) NOT NULL, "tpm_ek_cert_serial" character varying(128), "tpm_ak_public" bytea, "enroll_key_hash" character varying(64), "continuity_key" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b1514758245c12daf43486dd1f0" PRIMARY KEY ("id"))`,
    );
    await q.query(`CREATE UNIQUE INDEX "IDX_f3a8ce1efac49c94b300d05eb1" ON "devices" ("serial")`);
    await q.query(`CREATE INDEX "IDX_977118f6c150943697602628ca" ON "devices" ("owner")`);
    await q.query(`CREATE INDEX "IDX_c173a285b66293beea00b2be98" ON "devices" ("agent_version")`);
    await q.query(
      `CREATE TABLE "device_purpose_overrides" ("device_id" uuid NOT NULL, "purpose" character varying(16) NOT NULL, "mode" character varying(8) NOT NULL, "updated_by" character varying(320) NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_device_purpose_overrides_mode" CHECK ("mode" IN ('allow','deny')), CONSTRAINT "PK_a141eab1eb70c1499ba8c2b65a3" PRIMARY KEY ("device_id", "purpose"))`,
    );
    await q.query(
      `CREATE TABLE "device_purpose_requests" ("id" uuid NOT NULL, "device_id" uuid NOT NULL, "purpose" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "note" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "decided_at" TIMESTAMP WITH TIME ZONE, "decided_by" character varying(320), CONSTRAINT "CHK_device_purpose_requests_status" CHECK ("status" IN ('pending','approved','denied')), CONSTRAINT "PK_80e5f89c9894156809bcd337c6a" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_ca66c3e5a4b2418468ae916c9c" ON "device_purpose_requests" ("status", "created_at")`,
    );
    await q.query(
      `CREATE UNIQUE INDEX "UQ_device_purpose_requests_pending" ON "device_purpose_requests" ("device_id", "purpose") WHERE "status" = 'pending'`,
    );
    await q.query(
      `CREATE TABLE "enroll_nonces" ("nonce_hash" character varying(64) NOT NULL, "kind" character varying(8) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f7fe6432f7936661f8a50272b4f" PRIMARY KEY ("nonce_hash"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_694c7f3facc43b600f764b7166" ON "enroll_nonces" ("expires_at")`,
    );
    await q.query(
      `CREATE TABLE "certificate_requests" ("id" uuid NOT NULL, "device_id" uuid NOT NULL, "purpose" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "csr_der" bytea NOT NULL, "public_key_spki_der" bytea NOT NULL, "public_key_hash" character varying(64) NOT NULL, "key_algorithm" character varying(8) NOT NULL, "subject_common_name" character varying(255), "requester_kind" character varying(8) NOT NULL, "requested_by" character varying(320) NOT NULL, "user_identity" character varying(320), "upn" character varying(320), "sid" character varying(184), "registered_during_block" boolean NOT NULL DEFAULT false, "agent_secret_hash" character varying(64) NOT NULL, "agent_version" character varying(64), "source_auth" character varying(32) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "decided_at" TIMESTAMP WITH TIME ZONE, "decided_by" character varying(320), "status_reason" character varying(500), "installed_at" TIMESTAMP WITH TIME ZONE, "installed_agent_version" character varying(64), CONSTRAINT "CHK_certificate_requests_status" CHECK ("status" IN ('pending','approved','ca_pending','issued','rejected','failed','superseded','cancelled')), CONSTRAINT "PK_69c63a8245ee8787a471cce003f" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_9cfd185f4d4ac2b6ad343fbb1f" ON "certificate_requests" ("purpose")`,
    );
    await q.query(
      `CREATE INDEX "IDX_051fc99eaca176ad3148fcdbcc" ON "certificate_requests" ("public_key_hash")`,
    );
    await q.query(
      `CREATE INDEX "IDX_760247d4fd6028e35be87660e8" ON "certificate_requests" ("device_id", "purpose", "status")`,
    );
    await q.query(
      `CREATE INDEX "IDX_8e79592be4ebb5ebd9a6325177" ON "certificate_requests" ("status", "created_at")`,
    );
    await q.query(
      `CREATE TABLE "corp_allowlist" ("serial" character varying(128) NOT NULL, "note" character varying(500), "added_by" character varying(320) NOT NULL, "added_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4fd3c84666d233839cf3df70004" PRIMARY KEY ("serial"))`,
    );
    await q.query(
      `CREATE TABLE "policy_settings" ("key" character varying(64) NOT NULL, "value" jsonb NOT NULL, "updated_by" character varying(320) NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8fb40e4a5a0cf265172ac687771" PRIMARY KEY ("key"))`,
    );
    await q.query(
      `ALTER TABLE "device_purpose_overrides" ADD CONSTRAINT "FK_4bfa7fddd6eb9c196de036e8d2f" FOREIGN KEY ("device_id") REFERENCES "devices"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "device_purpose_requests" ADD CONSTRAINT "FK_4f8cc4e3715384d31ea4886975b" FOREIGN KEY ("device_id") REFERENCES "devices"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await q.query(
      `ALTER TABLE "certificate_requests" ADD CONSTRAINT "FK_c0a4860790af52e3277fec79aea" FOREIGN KEY ("device_id") REFERENCES "devices"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}
