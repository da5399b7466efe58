import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The published KRL (one row, id 1) with its rising `krl_version`. */
@Entity('ssh_krl_state')
@Check('CHK_ssh_krl_state_singleton', `"id" = 1`)
export class SshKrlStateEntity {
  @PrimaryColumn({ type: 'smallint' })
  id!: number;

  /** bigint: returned by pg as a string. */
  @Column({ type: 'bigint' })
  version!: string;

  @Column({ type: 'timestamptz' })
  generatedAt!: Date;

  @Column({ type: 'bytea' })
  krl!: Buffer;

  /** SHA-256 of `krl`, hex: the strong entity tag of `GET /api/v1/ssh/krl`. */
  @Column({ type: 'varchar', length: 64 })
  sha256!: string;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
