import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { UserEntity } from '../users/user.entity';
import type { ProjectRole } from './project-roles';
import { ProjectEntity } from './project.entity';

/** A human user's role in one project. */
@Entity('project_members')
export class ProjectMemberEntity {
  @PrimaryColumn({ type: 'uuid' }) projectId!: string;

  @Index('ix_project_members_user_id')
  @PrimaryColumn({ type: 'uuid' })
  userId!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: ProjectEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 16 }) role!: ProjectRole;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt!: Date;
}
