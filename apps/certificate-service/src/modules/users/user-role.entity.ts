import { CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { HumanRole } from '../../app/access/roles';
import { UserEntity } from './user.entity';

/** One role held by one user. An empty table means nobody has signed in yet. */
@Entity('user_roles')
export class UserRoleEntity {
  @PrimaryColumn({ type: 'varchar', length: 320 })
  email!: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  role!: HumanRole;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'email', referencedColumnName: 'email' })
  user?: UserEntity;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
