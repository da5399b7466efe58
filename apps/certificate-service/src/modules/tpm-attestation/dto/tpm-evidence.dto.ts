import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBase64, IsString, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import type { TpmEvidence } from '../tpm-evidence';

/** Base64 of at most 8 KiB (an EK certificate, a TPM structure or a signature). */
const MAX_B64 = 11_000;

/** The TPM half of `POST /enroll/nonce`: asks for a credential-activation challenge. */
export class TpmNonceDto {
  @ApiProperty({ description: 'EK certificate, base64 DER (NV index 0x01c00002 for RSA)' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_B64)
  @IsBase64()
  ek_certificate!: string;

  @ApiProperty({
    description: 'attestation key, base64 TPM2B_PUBLIC (`tpm2_createak -u … -f tss`)',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_B64)
  @IsBase64()
  ak_public!: string;
}

export class TpmEvidenceDto extends TpmNonceDto {
  @ApiPropertyOptional({
    type: [String],
    maxItems: 4,
    description:
      'intermediate certificates from the EK certificate up to a registered vendor root, base64 DER',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(4)
  @IsString({ each: true })
  @MaxLength(MAX_B64, { each: true })
  @IsBase64(undefined, { each: true })
  ek_chain?: string[];

  @ApiProperty({
    description: 'TPMS_ATTEST of `tpm2_quote -q <SHA-256 of the nonce, hex>`, base64',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_B64)
  @IsBase64()
  quote_info!: string;

  @ApiProperty({ description: 'the AK signature of quote_info (TPMT_SIGNATURE or plain), base64' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_B64)
  @IsBase64()
  quote_signature!: string;

  @ApiPropertyOptional({
    description:
      'what `tpm2_activatecredential` released for the nonce challenge, base64; first attested enroll',
  })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_B64)
  @IsBase64()
  activated_credential?: string;

  @ApiPropertyOptional({ description: 'the CSR key, base64 TPM2B_PUBLIC' })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_B64)
  @IsBase64()
  key_public?: string;

  @ApiPropertyOptional({
    description: 'TPMS_ATTEST of `tpm2_certify` of the CSR key by the AK, base64',
  })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_B64)
  @IsBase64()
  certify_info?: string;

  @ApiPropertyOptional({ description: 'the AK signature of certify_info, base64' })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_B64)
  @IsBase64()
  certify_signature?: string;
}

export function tpmEvidenceOf(dto: TpmEvidenceDto): TpmEvidence {
  const b = (value: string): Buffer => Buffer.from(value, 'base64');
  return {
    ekCertificate: b(dto.ek_certificate),
    ekChain: (dto.ek_chain ?? []).map(b),
    akPublic: b(dto.ak_public),
    quoteInfo: b(dto.quote_info),
    quoteSignature: b(dto.quote_signature),
    ...(dto.activated_credential ? { activatedCredential: b(dto.activated_credential) } : {}),
    ...(dto.key_public ? { keyPublic: b(dto.key_public) } : {}),
    ...(dto.certify_info ? { certifyInfo: b(dto.certify_info) } : {}),
    ...(dto.certify_signature ? { certifySignature: b(dto.certify_signature) } : {}),
  };
}

export class ActivationChallengeDto {
  @ApiProperty({ description: 'TPM2B_ID_OBJECT, base64' }) credential_blob!: string;
  @ApiProperty({ description: 'TPM2B_ENCRYPTED_SECRET, base64' }) encrypted_secret!: string;
  @ApiProperty({
    description:
      'both as the file `tpm2_activatecredential -i` reads (magic BADCC0DE, version 1), base64',
  })
  credential_file!: string;
}
