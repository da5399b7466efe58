import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outgoing webhooks: the endpoints (secret sealed with `CERTSVC_WEBHOOK_ENC_KEY`) and the
 * outbox of their deliveries, written in the transaction of each event.
 */
export class Webhooks1795700300000 implements MigrationInterface {
  name = 'Webhooks1795700300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "webhook_endpoints" ("id" uuid NOT NULL DEFAULT uuid_generate_v4(), "url" character varying(2048) NOT NULL, "description" character varying(500) NOT NULL DEFAULT '', "event_types" text array NOT NULL DEFAULT '{}', "enabled" boolean NOT NULL DEFAULT true, "secret_sealed" text NOT NULL, "created_by" character varying(320) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL DEFAULT uuid_generate_v4(), "endpoint_id" uuid NOT NULL, "event_type" character varying(64) NOT NULL, "event_id" uuid NOT NULL, "payload" jsonb NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "last_response_code" integer, "last_error" text, "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "delivered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_04fa926c32b43d66134e059d76" ON "webhook_deliveries" ("created_at") `,
    );
    await q.query(
      `CREATE INDEX "IDX_90d878c7d3ce99fb2ef328d4d5" ON "webhook_deliveries" ("endpoint_id", "created_at") `,
    );
    await q.query(
      `CREATE INDEX "IDX_webhook_deliveries_due" ON "webhook_deliveries" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
  }

  async down(): Promise<void> {
    throw new Error('migrations are forward-only; restore a dump taken before the upgrade');
  }
}
