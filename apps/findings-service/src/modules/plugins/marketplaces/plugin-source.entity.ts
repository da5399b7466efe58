import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/**
 * A plugin catalog source (marketplace). `public_key` (Ed25519 SPKI PEM) is write-only: the
 * API never returns it; a source without one is unsigned (signatures are not checked, native
 * plugins are refused). `official` marks the source registered at first start (one row at
 * most, whatever the number of replicas: partial unique index).
 */
@Entity('plugin_sources')
@Index('uq_plugin_sources_official', ['official'], { unique: true, where: '"official"' })
export class PluginSourceEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_plugin_sources_id' }) id!: string;

  @Column({ type: 'varchar', length: 200 }) name!: string;

  @Column({ type: 'text' }) catalogUrl!: string;

  @Column({ type: 'text', nullable: true }) publicKey!: string | null;

  @Column({ type: 'boolean', default: true }) isActive!: boolean;

  /** Native (tier 2) plugins may come from here; effective only with a public key. */
  @Column({ type: 'boolean', default: false }) allowsNative!: boolean;

  @Column({ type: 'boolean', default: false }) official!: boolean;

  /** Artifact digests revoked by the last verified catalog document of this source. */
  @Column({ type: 'text', array: true, default: () => "'{}'" }) revokedDigests!: string[];

  /** When the catalog was last fetched and verified (its revocation list is then current). */
  @Column({ type: 'timestamptz', nullable: true }) catalogFetchedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt!: Date;
}
