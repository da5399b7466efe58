import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A fleet-wide policy stored as JSON under a key (`enroll_source_auth`, `sa_auto_approve`). */
@Entity('policy_settings')
export class PolicySettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'jsonb' })
  value!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 320 })
  updatedBy!: string;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
