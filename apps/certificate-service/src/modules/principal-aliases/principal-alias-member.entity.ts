import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { PrincipalAliasEntity } from './principal-alias.entity';

/** A person (lower-cased email) standing behind an alias. */
@Entity('principal_alias_members')
export class PrincipalAliasMemberEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  alias!: string;

  @Index()
  @PrimaryColumn({ type: 'varchar', length: 320 })
  member!: string;

  @ManyToOne(() => PrincipalAliasEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'alias' })
  aliasRow?: PrincipalAliasEntity;

  @Column({ type: 'varchar', length: 320 })
  addedBy!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  addedAt!: Date;
}
