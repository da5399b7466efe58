import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The LDAP directory `POST /api/v1/enroll/identity-sid` asks (one row, id 1): where it is,
 * how to bind, where and by which attributes to search. The bind password is sealed with
 * `CERTSVC_SCEP_ENC_KEY` (AES-256-GCM envelope of libs/pki, like issuer-profile secrets) and
 * never returned.
 */
@Entity('identity_directory_settings')
@Check('CHK_identity_directory_settings_singleton', `"id" = 1`)
export class IdentityDirectoryEntity {
  @PrimaryColumn({ type: 'smallint' })
  id!: number;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'varchar', length: 1024 })
  bindDn!: string;

  @Column({ type: 'text', nullable: true })
  sealedBindPassword!: string | null;

  @Column({ type: 'varchar', length: 1024 })
  baseDn!: string;

  @Column({ type: 'varchar', length: 64 })
  upnAttribute!: string;

  @Column({ type: 'varchar', length: 64 })
  sidAttribute!: string;

  @Column({ type: 'integer' })
  timeoutMs!: number;

  @Column({ type: 'text', nullable: true })
  caPem!: string | null;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ type: 'varchar', length: 320 })
  updatedBy!: string;
}
