import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `mail_sends` (issue 27, docs/findings-service/mail.md): the idempotency record of the
 * e-mail channel's sends, one row per delivery (event id), `sending` then `sent`.
 */
export class MailSends1795605200000 implements MigrationInterface {
  name = 'MailSends1795605200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "mail_sends" ("event_id" uuid NOT NULL, "installed_plugin_id" uuid NOT NULL, "project_id" uuid NOT NULL, "state" character varying(8) NOT NULL, "message_id" character varying(300) NOT NULL, "recipient_count" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "sent_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_mail_sends" PRIMARY KEY ("event_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_mail_sends_created_at" ON "mail_sends" ("created_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_mail_sends_created_at"`);
    await queryRunner.query(`DROP TABLE "mail_sends"`);
  }
}
