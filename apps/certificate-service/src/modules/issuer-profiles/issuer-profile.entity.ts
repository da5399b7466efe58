import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The issuer of one X.509 purpose (`wifi`, `user_mtls`, `ad_logon`, `vpn`): its kind, the
 * non-secret settings as JSON, and the secrets sealed with `CERTSVC_SCEP_ENC_KEY`
 * (AES-256-GCM envelope of a JSON object, bound to the purpose; never returned).
 */
@Entity('issuer_profiles')
@Check('CHK_issuer_profiles_kind', `"kind" IN ('built_in','scep','est')`)
export class IssuerProfileEntity {
  @PrimaryColumn({ type: 'varchar', length: 16 })
  purpose!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  @Column({ type: 'jsonb' })
  settings!: Record<string, unknown>;

  @Column({ type: 'text', nullable: true })
  sealedSecrets!: string | null;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ type: 'varchar', length: 320 })
  updatedBy!: string;
}
