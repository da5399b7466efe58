import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** A project groups products; its settings carry remediation days per severity. */
@Entity('projects')
export class ProjectEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;

  @Index('uq_projects_name', { unique: true })
  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'text', nullable: true }) description!: string | null;

  /** Remediation days per severity; null means no deadline for that severity. */
  @Column({ type: 'integer', nullable: true, default: 7 }) slaCriticalDays!: number | null;
  @Column({ type: 'integer', nullable: true, default: 14 }) slaHighDays!: number | null;
  @Column({ type: 'integer', nullable: true, default: 30 }) slaMediumDays!: number | null;
  @Column({ type: 'integer', nullable: true, default: 90 }) slaLowDays!: number | null;
  @Column({ type: 'integer', nullable: true }) slaInfoDays!: number | null;

  @Column({ type: 'boolean', default: false }) autoVerifyFixes!: boolean;

  @Column({ type: 'uuid', nullable: true }) createdByUserId!: string | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt!: Date;
}
