import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ProjectEntity } from '../projects/project.entity';

/** A scanned product (usually one repository) inside a project. */
@Entity('products')
@Index('uq_products_project_id_name', ['projectId', 'name'], { unique: true })
export class ProductEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @Column({ type: 'uuid' }) projectId!: string;

  @Column({ type: 'varchar', length: 200 }) name!: string;

  @Column({ type: 'text', nullable: true }) description!: string | null;

  /** As entered. */
  @Column({ type: 'text', nullable: true }) repositoryUrl!: string | null;

  /** `host/owner/repo`, lower-cased: https, ssh and `.git` forms of one repository match. */
  @Index('ix_products_repository_key')
  @Column({ type: 'text', nullable: true })
  repositoryKey!: string | null;

  @Index('ix_products_scan_enabled')
  @Column({ type: 'boolean', default: false })
  scanEnabled!: boolean;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt!: Date;
}
