import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A shared account name on servers (`deploy`, `oncall`) behind which several people stand. */
@Entity('principal_aliases')
export class PrincipalAliasEntity {
  /** POSIX login name (see principal-name.ts). */
  @PrimaryColumn({ type: 'varchar', length: 32 })
  name!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ type: 'varchar', length: 320 })
  createdBy!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
