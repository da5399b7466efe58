import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * The webhook outbox (owner: the webhooks module): one row per event and subscribed endpoint,
 * written in the transaction of the event it reports. The worker claims due rows with
 * `FOR UPDATE SKIP LOCKED`; a claim moves `next_attempt_at` one lease ahead, so a row whose
 * worker died becomes due again. The row's id is the receiver's idempotency key.
 */
@Entity('webhook_deliveries')
@Index('IDX_webhook_deliveries_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
@Index(['endpointId', 'createdAt'])
@Index(['createdAt'])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  endpointId!: string;

  @Column({ type: 'varchar', length: 64 })
  eventType!: string;

  /** The event's id, shared by the rows of the same event to several endpoints. */
  @Column({ type: 'uuid' })
  eventId!: string;

  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: 'integer', nullable: true })
  lastResponseCode!: number | null;

  @Column({ type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;
}
