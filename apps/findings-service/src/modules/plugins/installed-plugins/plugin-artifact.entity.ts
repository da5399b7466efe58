import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * The bytes of one plugin artifact (component or native program), keyed by its sha256. Kept
 * in the database so every API replica and worker loads the same bytes; re-hashed before
 * every load.
 */
@Entity('plugin_artifacts')
export class PluginArtifactEntity {
  @PrimaryColumn({
    type: 'char',
    length: 64,
    primaryKeyConstraintName: 'PK_plugin_artifacts_digest',
  })
  digest!: string;

  @Column({ type: 'bytea' }) content!: Buffer;

  @Column({ type: 'integer' }) size!: number;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;
}
