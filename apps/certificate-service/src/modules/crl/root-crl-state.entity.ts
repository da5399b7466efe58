import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * The latest CRL of the built-in root CA (one row, id 1): the issuing CAs it revoked (normally
 * none), signed by the root key, with its own rising cRLNumber and nextUpdate.
 */
@Entity('root_crl_state')
@Check('CHK_root_crl_state_singleton', `"id" = 1`)
export class RootCrlStateEntity {
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
