import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** The latest CRL of the built-in CA (one row, id 1), with its rising cRLNumber. */
@Entity('crl_state')
@Check('CHK_crl_state_singleton', `"id" = 1`)
export class CrlStateEntity {
  @PrimaryColumn({ type: 'smallint' })
  id!: number;

  /** bigint: returned by pg as a string. */
  @Column({ type: 'bigint' })
  crlNumber!: string;

  @Column({ type: 'timestamptz' })
  thisUpdate!: Date;

  @Column({ type: 'timestamptz' })
  nextUpdate!: Date;

  @Column({ type: 'bytea' })
  der!: Buffer;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
