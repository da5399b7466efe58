import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { toPem } from '@platform/pki';
import type { TpmVendorRootEntity } from '../tpm-vendor-root.entity';

/** PEM of one certificate of at most 8 KiB DER is under 11.2 KiB of text; the rest is slack. */
export const MAX_TPM_ROOT_PEM_CHARS = 16_384;
// eslint-disable-next-line no-control-regex
const NAME_PATTERN = /^(?=.*\S)[^\u0000-\u001f\u007f-\u009f]+$/;

export class AddTpmRootDto {
  @ApiProperty({ example: 'Infineon OPTIGA RSA Root CA 2', minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(NAME_PATTERN, { message: 'name must be printable text, not only spaces' })
  name!: string;

  @ApiProperty({
    description:
      'exactly one PEM CERTIFICATE block (no bundle): a CA certificate — basicConstraints cA=true (with keyCertSign when keyUsage is present) or a self-signed X.509 v1 root — valid now; self-signed or not (a registered intermediate trusts only what it signs). 400 tpm_root_invalid names the problem; 409 tpm_root_exists for a certificate already registered (same SHA-256)',
    maxLength: MAX_TPM_ROOT_PEM_CHARS,
  })
  @IsString()
  @MaxLength(MAX_TPM_ROOT_PEM_CHARS)
  certificate_pem!: string;
}

export class TpmRootDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'subject of the certificate (RDNs joined with ", "; may be empty)' })
  subject!: string;
  @ApiProperty({ description: 'SHA-256 of the DER, 64 lowercase hex digits' })
  fingerprint_sha256!: string;
  @ApiProperty({ format: 'date-time' }) not_before!: string;
  @ApiProperty({ format: 'date-time' }) not_after!: string;
  @ApiProperty({ description: 'the certificate as registered, PEM' }) certificate_pem!: string;
  @ApiProperty() created_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static from(row: TpmVendorRootEntity): TpmRootDto {
    return {
      id: row.id,
      name: row.name,
      subject: row.subject,
      fingerprint_sha256: row.fingerprintSha256,
      not_before: row.notBefore.toISOString(),
      not_after: row.notAfter.toISOString(),
      certificate_pem: toPem('CERTIFICATE', row.certificateDer),
      created_by: row.createdBy,
      created_at: row.createdAt.toISOString(),
    };
  }
}

export class TpmRootListDto {
  @ApiProperty({ type: [TpmRootDto] }) items!: TpmRootDto[];
}
