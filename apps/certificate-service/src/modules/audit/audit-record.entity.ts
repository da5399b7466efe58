import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type AuditActorKind = 'user' | 'service_account' | 'device' | 'system';

/** One administrative action. `actor` is the person's email, `API`, `device:<serial>` or `system`. */
@Entity('audit_log')
@Index(['action', 'at'])
export class AuditRecordEntity {
  /** bigint: returned by pg as a string. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @Index()
  @CreateDateColumn({ type: 'timestamptz' })
  at!: Date;

  @Column({ type: 'varchar', length: 64 })
  action!: string;

  @Index()
  @Column({ type: 'varchar', length: 320 })
  actor!: string;

  @Column({ type: 'varchar', length: 32 })
  actorKind!: AuditActorKind;

  @Column({ type: 'uuid', nullable: true })
  serviceAccountId!: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  target!: string | null;

  @Column({ type: 'jsonb' })
  details!: Record<string, unknown>;
}
