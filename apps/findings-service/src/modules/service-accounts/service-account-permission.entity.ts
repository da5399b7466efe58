import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { PermissionLevel, PermissionName } from '../../app/access/permissions';
import { ServiceAccountEntity } from './service-account.entity';

/**
 * One permission granted to a service account at a level. `projectId`/`productId` point at
 * tables that arrive with the projects issue (no foreign key yet).
 */
@Entity('service_account_permissions')
export class ServiceAccountPermissionEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;

  @ManyToOne(() => ServiceAccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'service_account_id' })
  serviceAccount?: ServiceAccountEntity;

  @Index('ix_service_account_permissions_service_account_id')
  @Column({ type: 'uuid' })
  serviceAccountId!: string;

  @Column({ type: 'varchar', length: 64 }) permission!: PermissionName;

  @Column({ type: 'varchar', length: 16 }) level!: PermissionLevel;

  @Column({ type: 'uuid', nullable: true }) projectId!: string | null;

  @Column({ type: 'uuid', nullable: true }) productId!: string | null;

  @Column({ type: 'timestamptz', nullable: true }) expiresAt!: Date | null;

  @Column({ type: 'uuid', nullable: true }) createdByUserId!: string | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;
}
