import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** Name of the unique constraint on the fingerprint (a second registration is a 409). */
export const TPM_ROOT_FINGERPRINT_UNIQUE = 'UQ_tpm_vendor_roots_fingerprint_sha256';

/**
 * A TPM vendor root an admin registered: EK certificates that chain to one of these (through
 * intermediates the agent sends) are trusted as genuine TPMs. Stored as the DER the admin sent;
 * the other columns are read from it once, at registration.
 */
@Entity('tpm_vendor_roots')
@Unique(TPM_ROOT_FINGERPRINT_UNIQUE, ['fingerprintSha256'])
export class TpmVendorRootEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'bytea' })
  certificateDer!: Buffer;

  /** SHA-256 of the DER, 64 lowercase hex digits. */
  @Column({ type: 'varchar', length: 64 })
  fingerprintSha256!: string;

  /** The certificate's subject as text (`CN=..., O=...`); may be empty. */
  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'timestamptz' })
  notBefore!: Date;

  @Column({ type: 'timestamptz' })
  notAfter!: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'varchar', length: 320 })
  createdBy!: string;
}
