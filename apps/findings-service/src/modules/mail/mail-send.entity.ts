import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type MailSendState = 'sending' | 'sent';

/**
 * One e-mail of a notification delivery (docs/findings-service/mail.md): written `sending`
 * before the SMTP exchange and `sent` after the server accepted it. A `sent` row answers a
 * retried delivery with its Message-ID without sending again; a `sending` row (the process
 * died between the server's 250 and the commit) is sent again with the same Message-ID.
 */
@Entity('mail_sends')
@Index('ix_mail_sends_created_at', ['createdAt'])
export class MailSendEntity {
  /** The delivery id (the invocation's event id). */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_mail_sends' }) eventId!: string;
  @Column({ type: 'uuid' }) installedPluginId!: string;
  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'varchar', length: 8 }) state!: MailSendState;
  @Column({ type: 'varchar', length: 300 }) messageId!: string;
  @Column({ type: 'int' }) recipientCount!: number;
  @Column({ type: 'timestamptz' }) createdAt!: Date;
  @Column({ type: 'timestamptz', nullable: true }) sentAt!: Date | null;
}
