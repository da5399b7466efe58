import { ApiProperty } from '@nestjs/swagger';
import { IsBase64, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { SERIAL_PATTERN } from '../../../app/domain/device-serial';
import { RECOVER_KEYS, RECOVER_MESSAGE_TAG, type RecoverKey } from '../recover-proof';

export class TokenRecoverDto {
  @ApiProperty({ example: 'PF3XYZ12', description: 'serial of the device' })
  @IsString()
  @Matches(SERIAL_PATTERN)
  serial!: string;

  @ApiProperty({ description: 'from POST /enroll/nonce; consumed by this call, success or not' })
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  nonce!: string;

  @ApiProperty({
    enum: RECOVER_KEYS,
    description:
      '`continuity`: the pinned continuity key (SPKI); `ak`: the TPM attestation key pinned by credential activation',
  })
  @IsIn(RECOVER_KEYS)
  key!: RecoverKey;

  @ApiProperty({
    description: `base64 signature with the chosen pinned key over the UTF-8 bytes of \`${RECOVER_MESSAGE_TAG} NUL key NUL serial NUL nonce\` (docs/certificate-service/enrollment.md)`,
  })
  @IsString()
  @MinLength(1)
  @MaxLength(1400)
  @IsBase64()
  signature!: string;
}

export class TokenRecoverResponseDto {
  @ApiProperty() serial!: string;

  @ApiProperty({ description: 'the new enrollment token, shown once; the old one stops working' })
  enrollment_token!: string;
}
