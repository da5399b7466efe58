import {
  Column,
  Entity,
  Generated,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import type { ActorType } from '../action-log/finding-action';
import { ProjectEntity } from '../projects/project.entity';
import type { EntryMode } from './perimeter/perimeter';
import type { EntryKind } from './perimeter/scope-entry-value';

export const ENTRY_ORIGINS = ['manual', 'proposal', 'netbox'] as const;
export type EntryOrigin = (typeof ENTRY_ORIGINS)[number];

export const PROPOSAL_STATUSES = ['pending', 'confirmed', 'rejected'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/**
 * One entry of a project's scan perimeter (docs/findings-service/scope.md): an address, block,
 * range, name or wildcard, included or excluded. `value` is canonical and ASCII (punycode for
 * internationalized names), unique per project; entries of one mode never overlap.
 */
@Entity('scope_entries')
@Index('uq_scope_entries_project_id_value', ['projectId', 'value'], { unique: true })
@Index('ix_scope_entries_project_id_seq', ['projectId', 'seq'])
export class ScopeEntryEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_scope_entries' }) id!: string;

  /** Order of addition (entries added by one request share `created_at`). */
  @Column({ type: 'bigint' })
  @Generated('increment')
  seq!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'FK_scope_entries_project_id' })
  project?: ProjectEntity;

  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'varchar', length: 8 }) mode!: EntryMode;
  @Column({ type: 'varchar', length: 16 }) kind!: EntryKind;
  @Column({ type: 'varchar', length: 300 }) value!: string;
  @Column({ type: 'text', nullable: true }) comment!: string | null;
  /** `manual` (POST entries), `proposal` (a confirmed proposal) or `netbox` (an import). */
  @Column({ type: 'varchar', length: 16 }) origin!: EntryOrigin;
  /** The proposal id, or the IPAM object (`prefix 12`, `ip-address 40`). */
  @Column({ type: 'varchar', length: 200, nullable: true }) originRef!: string | null;
  @Column({ type: 'varchar', length: 16 }) createdByType!: ActorType;
  @Column({ type: 'uuid', nullable: true }) createdById!: string | null;
  @Column({ type: 'text', nullable: true }) createdByLabel!: string | null;
  @Column({ type: 'timestamptz' }) createdAt!: Date;
}

/**
 * An object a scanner proposed for the perimeter. It widens nothing until an administrator
 * confirms it (then `entry_id` is the entry made from it); a rejected one stays rejected. One
 * row per project and value: proposing it again counts (`times_proposed`).
 */
@Entity('scope_proposals')
@Index('uq_scope_proposals_project_id_value', ['projectId', 'value'], { unique: true })
@Index('ix_scope_proposals_project_id_status_first_proposed_at_id', [
  'projectId',
  'status',
  'firstProposedAt',
  'id',
])
export class ScopeProposalEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_scope_proposals' }) id!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'FK_scope_proposals_project_id' })
  project?: ProjectEntity;

  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'varchar', length: 300 }) value!: string;
  @Column({ type: 'varchar', length: 16 }) kind!: EntryKind;
  @Column({ type: 'varchar', length: 16 }) status!: ProposalStatus;
  /** The scanner's note (what it saw, where). */
  @Column({ type: 'text', nullable: true }) comment!: string | null;
  @Column({ type: 'varchar', length: 16 }) proposedByType!: ActorType;
  @Column({ type: 'uuid', nullable: true }) proposedById!: string | null;
  @Column({ type: 'text', nullable: true }) proposedByLabel!: string | null;
  @Column({ type: 'int', default: 1 }) timesProposed!: number;
  @Column({ type: 'timestamptz' }) firstProposedAt!: Date;
  @Column({ type: 'timestamptz' }) lastProposedAt!: Date;
  @Column({ type: 'timestamptz', nullable: true }) decidedAt!: Date | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) decidedByType!: ActorType | null;
  @Column({ type: 'uuid', nullable: true }) decidedById!: string | null;
  @Column({ type: 'text', nullable: true }) decidedByLabel!: string | null;
  @Column({ type: 'text', nullable: true }) decisionComment!: string | null;

  @ManyToOne(() => ScopeEntryEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'entry_id', foreignKeyConstraintName: 'FK_scope_proposals_entry_id' })
  entry?: ScopeEntryEntity;

  @Column({ type: 'uuid', nullable: true }) entryId!: string | null;
}

/**
 * A domain <-> IP pair a discovery scanner saw (`POST .../scope/assets`), with when it was
 * first and last seen, and whether the domain still resolves (`.../resolution-report`).
 */
@Entity('scope_assets')
@Index('uq_scope_assets_project_id_domain_ip', ['projectId', 'domain', 'ip'], { unique: true })
@Index('ix_scope_assets_project_id_last_seen_at_id', ['projectId', 'lastSeenAt', 'id'])
export class ScopeAssetEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_scope_assets' }) id!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'FK_scope_assets_project_id' })
  project?: ProjectEntity;

  @Column({ type: 'uuid' }) projectId!: string;
  /** ASCII (punycode) host name. */
  @Column({ type: 'varchar', length: 253 }) domain!: string;
  /** Canonical address text (dotted quad, RFC 5952). */
  @Column({ type: 'varchar', length: 45 }) ip!: string;
  @Column({ type: 'timestamptz' }) firstSeenAt!: Date;
  @Column({ type: 'timestamptz' }) lastSeenAt!: Date;
  /** False after a resolution report said the domain stopped resolving. */
  @Column({ type: 'boolean', default: true }) resolving!: boolean;
  @Column({ type: 'timestamptz', nullable: true }) stoppedResolvingAt!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) resumedResolvingAt!: Date | null;
  /** Who reported the pair or its resolution last (account name or e-mail). */
  @Column({ type: 'text', nullable: true }) reportedByLabel!: string | null;
}
