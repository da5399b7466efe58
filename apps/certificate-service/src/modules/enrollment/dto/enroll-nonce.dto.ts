import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsString, Matches, ValidateNested } from 'class-validator';
import { InvalidRequestError } from '../../../app/errors/certsvc-error';
import { SERIAL_PATTERN } from '../../../app/domain/device-serial';
import { OptionalNotNull } from '@platform/http';
import { ActivationChallengeDto, TpmNonceDto } from '../../tpm-attestation/dto/tpm-evidence.dto';
import type { IssuedEnrollNonce } from '../enroll-nonce-issuer.service';
import type { EnrollHardwareDto } from './enroll.dto';

/** Body of `POST /enroll/nonce`; empty for a plain nonce. */
export class EnrollNonceRequestDto {
  @ApiPropertyOptional({
    example: 'PF3XYZ12',
    description: 'the device serial: no challenge when this AK is already pinned on it',
  })
  @OptionalNotNull()
  @IsString()
  @Matches(SERIAL_PATTERN)
  serial?: string;

  @ApiPropertyOptional({
    type: () => TpmNonceDto,
    description: 'EK certificate and AK: asks for a credential-activation challenge',
  })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => TpmNonceDto)
  tpm?: TpmNonceDto;
}

export class EnrollNonceDto {
  @ApiProperty() nonce!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiPropertyOptional({
    type: () => ActivationChallengeDto,
    description:
      'present when `tpm` was sent and the AK is not pinned: run ActivateCredential and send the result as tpm.activated_credential',
  })
  activation?: ActivationChallengeDto;

  static from(issued: IssuedEnrollNonce): EnrollNonceDto {
    const a = issued.activation;
    return {
      nonce: issued.nonce,
      expires_at: issued.expiresAt.toISOString(),
      ...(a
        ? {
            activation: {
              credential_blob: a.credentialBlob.toString('base64'),
              encrypted_secret: a.encryptedSecret.toString('base64'),
              credential_file: a.credentialFile.toString('base64'),
            },
          }
        : {}),
    };
  }
}

/** The continuity key and its signature come together or not at all. */
export function continuityOf(
  body: EnrollHardwareDto,
): { publicKeyPem: string; signature: Buffer } | undefined {
  const { continuity_key: key, continuity_signature: signature } = body;
  if (key === undefined && signature === undefined) return undefined;
  if (key === undefined || signature === undefined) {
    const missing = key === undefined ? 'continuity_key' : 'continuity_signature';
    throw new InvalidRequestError([
      { field: missing, problems: [`${missing} is required with the other continuity field`] },
    ]);
  }
  return { publicKeyPem: key, signature: Buffer.from(signature, 'base64') };
}
