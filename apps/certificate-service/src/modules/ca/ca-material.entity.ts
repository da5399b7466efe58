import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * The built-in CA (one row, id 1): certificates and private keys sealed with
 * `CERTSVC_CA_KEY_ENC_KEY` (AES-256-GCM envelopes, never the clear key).
 */
@Entity('ca_material')
@Check('CHK_ca_material_singleton', `"id" = 1`)
export class CaMaterialEntity {
  @PrimaryColumn({ type: 'smallint' })
  id!: number;

  @Column({ type: 'smallint' })
  formatVersion!: number;

  @Column({ type: 'bytea' })
  rootCertificateDer!: Buffer;

  @Column({ type: 'text' })
  rootEncryptedKey!: string;

  @Column({ type: 'bytea' })
  issuingCertificateDer!: Buffer;

  @Column({ type: 'text' })
  issuingEncryptedKey!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
