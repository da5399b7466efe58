import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A one-time App Attest challenge for one serial; only its SHA-256 is stored. */
@Entity('app_attest_challenges')
export class AppAttestChallengeEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  challengeHash!: string;

  @Column({ type: 'varchar', length: 128 })
  serial!: string;

  @Index()
  @Column({ type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
