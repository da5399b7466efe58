import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MailSendState } from './mail-send.entity';
import { StatementBatcher } from '@platform/database';

export interface MailSendRow {
  state: MailSendState;
  messageId: string;
}

export interface NewMailSend {
  eventId: string;
  installedPluginId: string;
  projectId: string;
  messageId: string;
  recipientCount: number;
}

/**
 * Inserts `sending` rows for the events that have none; answers every event's row as it is now
 * (the new one, or the earlier attempt's with its Message-ID). `$1..$5` parallel arrays.
 */
const BEGIN_SQL = `WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::int[])
      AS i(event_id, installed_plugin_id, project_id, message_id, recipient_count)),
  inserted AS (
    INSERT INTO mail_sends (event_id, installed_plugin_id, project_id, state, message_id,
           recipient_count, created_at)
    SELECT event_id, installed_plugin_id, project_id, 'sending', message_id, recipient_count, now()
      FROM input
    ON CONFLICT (event_id) DO NOTHING
    RETURNING event_id, state, message_id)
  SELECT event_id::text AS event_id, state, message_id FROM inserted
  UNION ALL
  SELECT m.event_id::text, m.state, m.message_id FROM mail_sends m
   WHERE m.event_id IN (SELECT event_id FROM input)
     AND m.event_id NOT IN (SELECT event_id FROM inserted)`;

/**
 * `mail_sends`, the idempotency record of the e-mail channel's sends. The concurrent sends of a
 * worker share statements (StatementBatcher): each `begin` and `markSent` still resolves only
 * after its own row is committed, so the guarantees of mail.md hold as with one statement each.
 */
@Injectable()
export class MailSendsRepository {
  private readonly begins = new StatementBatcher<NewMailSend, MailSendRow>((rows) =>
    this.beginAll(rows),
  );
  private readonly sents = new StatementBatcher<string, void>((ids) => this.markAllSent(ids));

  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records a send as `sending` unless the event already has a row; answers the row that is
   * there now (the new one, or the earlier attempt's with its Message-ID).
   */
  begin(row: NewMailSend): Promise<MailSendRow> {
    return this.begins.submit(row);
  }

  markSent(eventId: string): Promise<void> {
    return this.sents.submit(eventId);
  }

  private async beginAll(rows: NewMailSend[]): Promise<MailSendRow[]> {
    const found = (await this.dataSource.query(BEGIN_SQL, [
      rows.map((r) => r.eventId),
      rows.map((r) => r.installedPluginId),
      rows.map((r) => r.projectId),
      rows.map((r) => r.messageId),
      rows.map((r) => r.recipientCount),
    ])) as { event_id: string; state: MailSendState; message_id: string }[];
    const byEvent = new Map(found.map((f) => [f.event_id.toLowerCase(), f]));
    return rows.map((r) => {
      const f = byEvent.get(r.eventId.toLowerCase());
      if (!f) throw new Error('mail_sends row neither inserted nor found');
      return { state: f.state, messageId: f.message_id };
    });
  }

  private async markAllSent(eventIds: string[]): Promise<void[]> {
    await this.dataSource.query(
      `UPDATE mail_sends SET state = 'sent', sent_at = now() WHERE event_id = ANY($1::uuid[])`,
      [eventIds],
    );
    return eventIds.map(() => undefined);
  }
}
