import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A target server's token for the key-holder API. Only the SHA-256 of the value is stored (the
 * value is shown once). `principals` null: any login; otherwise only those login names.
 */
@Entity('keyholder_tokens')
export class KeyholderTokenEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  /** First characters of the value, to recognise it in lists. */
  @Column({ type: 'varchar', length: 16 })
  tokenPrefix!: string;

  @Column({ type: 'text', array: true, nullable: true })
  principals!: string[] | null;

  @Column({ type: 'varchar', length: 320 })
  createdBy!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ type: 'varchar', length: 320, nullable: true })
  revokedBy!: string | null;
}
