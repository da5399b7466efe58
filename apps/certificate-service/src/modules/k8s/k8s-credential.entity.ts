import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One issued Kubernetes credential (10-minute client certificate): written once per broker
 * call. While unexpired it holds the `k8s` purpose seat of the caller's device (licensing);
 * it is never revoked (the cluster does not consult the service).
 */
@Entity('k8s_credentials')
@Index(['deviceId', 'notAfter'])
@Index(['notAfter'])
export class K8sCredentialEntity {
  /** Lowercase hex, as the other certificate tables. */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  serial!: string;

  @Column({ type: 'uuid' })
  clusterId!: string;

  /** Device of the caller's `user_mtls` certificate. */
  @Column({ type: 'uuid' })
  deviceId!: string;

  @Column({ type: 'varchar', length: 320 })
  userIdentity!: string;

  /** Serial of the `user_mtls` certificate that identified the caller. */
  @Column({ type: 'varchar', length: 40 })
  callerSerial!: string;

  @Column({ type: 'timestamptz' })
  notAfter!: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
