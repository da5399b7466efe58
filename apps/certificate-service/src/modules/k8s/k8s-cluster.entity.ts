import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** How a person's attributes map to Kubernetes groups (`O=` of the client certificate). */
export interface K8sGroupMapping {
  /** `any`: everyone; `role`: a service role; `alias`: a principal alias; `user`: an email. */
  source: 'any' | 'role' | 'alias' | 'user';
  /** Role name, alias name or email; empty for `any`. */
  value: string;
  /** Kubernetes group the match grants. */
  group: string;
}

/**
 * A Kubernetes cluster: its API server, the CA bundle that API server presents, and the
 * client-certificate CA generated for it at registration (the cluster's API server trusts it
 * through `--client-ca-file`). CA private keys are sealed with `CERTSVC_CA_KEY_ENC_KEY`.
 */
@Entity('k8s_clusters')
export class K8sClusterEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 63, unique: true })
  name!: string;

  @Column({ type: 'varchar', length: 2048 })
  serverUrl!: string;

  /** PEM of the CA certificates the API server's TLS certificate chains to. */
  @Column({ type: 'text' })
  caBundle!: string;

  @Column({ type: 'jsonb' })
  groupMappings!: K8sGroupMapping[];

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ type: 'bytea' })
  clientCaRootDer!: Buffer;

  @Column({ type: 'text' })
  clientCaRootEncryptedKey!: string;

  @Column({ type: 'bytea' })
  clientCaIssuingDer!: Buffer;

  @Column({ type: 'text' })
  clientCaIssuingEncryptedKey!: string;

  @Column({ type: 'varchar', length: 320 })
  createdBy!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
