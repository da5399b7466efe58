import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * The SSH user CA (one row, id 1): the Ed25519 public key blob and the private key sealed with
 * `CERTSVC_CA_KEY_ENC_KEY` (AES-256-GCM envelope, as the X.509 CA keys; never the clear key).
 */
@Entity('ssh_ca_material')
@Check('CHK_ssh_ca_material_singleton', `"id" = 1`)
export class SshCaMaterialEntity {
  @PrimaryColumn({ type: 'smallint' })
  id!: number;

  @Column({ type: 'smallint' })
  formatVersion!: number;

  @Column({ type: 'bytea' })
  publicKeyBlob!: Buffer;

  @Column({ type: 'text' })
  encryptedPrivateKey!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
