import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A device serial known to belong to the organisation (corp-ownership `allowlist`). */
@Entity('corp_allowlist')
export class CorpAllowlistEntryEntity {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  serial!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  note!: string | null;

  @Column({ type: 'varchar', length: 320 })
  addedBy!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  addedAt!: Date;
}
