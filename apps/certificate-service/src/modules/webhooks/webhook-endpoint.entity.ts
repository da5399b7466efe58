import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/**
 * A receiver of outgoing webhooks (owner: the webhooks module). The secret signing its
 * deliveries is sealed with `CERTSVC_WEBHOOK_ENC_KEY` (AES-256-GCM) and never returned.
 */
@Entity('webhook_endpoints')
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  description!: string;

  /** Event types delivered to this endpoint; empty: every type. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  eventTypes!: string[];

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** `v1:<iv>:<tag>:<ciphertext>` (base64url), additional data `webhook:<id>`. */
  @Column({ type: 'text' })
  secretSealed!: string;

  @Column({ type: 'varchar', length: 320 })
  createdBy!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
