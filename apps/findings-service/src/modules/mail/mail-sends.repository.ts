import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MailSendState } from './mail-send.entity';

export interface MailSendRow {
  state: MailSendState;
  messageId: string;
}

/** `mail_sends`, the idempotency record of the e-mail channel's sends. */
@Injectable()
export class MailSendsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records a send as `sending` unless the event already has a row; answers the row that is
   * there now (the new one, or the earlier attempt's with its Message-ID).
   */
  async begin(row: {
    eventId: string;
    installedPluginId: string;
    projectId: string;
    messageId: string;
    recipientCount: number;
  }): Promise<MailSendRow> {
    const rows = (await this.dataSource.query(
      `WITH inserted AS (
         INSERT INTO mail_sends (event_id, installed_plugin_id, project_id, state, message_id, recipient_count, created_at)
         VALUES ($1, $2, $3, 'sending', $4, $5, now())
         ON CONFLICT (event_id) DO NOTHING
         RETURNING state, message_id)
       SELECT state, message_id FROM inserted
       UNION ALL
       SELECT state, message_id FROM mail_sends WHERE event_id = $1 AND NOT EXISTS (SELECT 1 FROM inserted)`,
      [row.eventId, row.installedPluginId, row.projectId, row.messageId, row.recipientCount],
    )) as { state: MailSendState; message_id: string }[];
    const found = rows[0];
    if (!found) throw new Error('mail_sends row neither inserted nor found');
    return { state: found.state, messageId: found.message_id };
  }

  async markSent(eventId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE mail_sends SET state = 'sent', sent_at = now() WHERE event_id = $1`,
      [eventId],
    );
  }
}
