import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { QueryInt } from '@platform/http';
import {
  PRINCIPAL_NAME_MAX_LENGTH,
  PRINCIPAL_NAME_PATTERN,
} from '../../../app/domain/principal-name';
import { KEYHOLDER_TOKEN_GATES, type KeyholderTokenGate } from '../../settings/keyholder.policy';
import type { Stored } from '../../settings/policy-settings.service';
import type { KeyholderPolicy } from '../../settings/keyholder.policy';
import type { SshRevocationEntity } from '../../ssh-keys/ssh-revocation.entity';
import type { KeyholderTokenEntity } from '../keyholder-token.entity';

const LOGIN_RULE = 'a POSIX login name (lower-case letter or _ first; a-z, 0-9, _, -; 1-32)';
const INT64_MAX = 9223372036854775807n;
export const MAX_TOKEN_PRINCIPALS = 1000;
export const MAX_REVOCATIONS_PAGE = 1000;

@ValidatorConstraint({ name: 'isFeedCursor' })
class IsFeedCursor implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && /^\d{1,19}$/.test(value) && BigInt(value) <= INT64_MAX;
  }
  defaultMessage(): string {
    return 'after must be a feed id (a non-negative integer), 0 to start at the beginning';
  }
}

@ValidatorConstraint({ name: 'isCertificateSerial' })
class IsCertificateSerial implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && /^\d{1,19}$/.test(value) && BigInt(value) <= INT64_MAX;
  }
  defaultMessage(): string {
    return 'serial must be the decimal serial of an SSH certificate';
  }
}

export class KeyholderKeysQueryDto {
  @ApiProperty({ example: 'alice', description: `the login sshd asks about (%u); ${LOGIN_RULE}` })
  @IsString()
  @MaxLength(PRINCIPAL_NAME_MAX_LENGTH)
  @Matches(PRINCIPAL_NAME_PATTERN, { message: `login must be ${LOGIN_RULE}` })
  login!: string;
}

export class KeyholderPrincipalsQueryDto {
  @ApiProperty({ example: '42', description: 'certificate serial, decimal (sshd %s)' })
  @Validate(IsCertificateSerial)
  serial!: string;

  @ApiPropertyOptional({
    example: 'certsvc:3f2c...:PF3XYZ12',
    description: 'certificate key id (sshd %i); when given it must match',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  key_id?: string;

  @ApiPropertyOptional({
    example: 'deploy',
    description: `only this login (sshd %u); ${LOGIN_RULE}`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(PRINCIPAL_NAME_MAX_LENGTH)
  @Matches(PRINCIPAL_NAME_PATTERN, { message: `login must be ${LOGIN_RULE}` })
  login?: string;
}

export class KeyholderRevocationsQueryDto {
  @ApiPropertyOptional({ example: '0', default: '0', description: 'last id already seen' })
  @IsOptional()
  @Validate(IsFeedCursor)
  after?: string;

  @QueryInt({ min: 1, max: MAX_REVOCATIONS_PAGE, default: 100 })
  limit?: number;
}

export class KeyholderRevocationDto {
  @ApiProperty({ description: 'feed id (grows in commit order); the cursor' }) id!: string;
  @ApiProperty({ enum: ['key', 'certificate'] }) kind!: 'key' | 'certificate';
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) ssh_key_id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'SHA256:... of the key' })
  fingerprint!: string | null;
  @ApiProperty({ nullable: true, type: String }) certificate_serial!: string | null;
  @ApiProperty({ nullable: true, type: String }) certificate_key_id!: string | null;
  @ApiProperty({ type: [String], description: 'logins that lose the key or certificate' })
  principals!: string[];
  @ApiProperty({ nullable: true, type: String }) reason!: string | null;
  @ApiProperty({ format: 'date-time' }) revoked_at!: string;

  static from(row: SshRevocationEntity): KeyholderRevocationDto {
    return {
      id: row.id,
      kind: row.kind,
      ssh_key_id: row.sshKeyId,
      fingerprint: row.fingerprint,
      certificate_serial: row.certificateSerial,
      certificate_key_id: row.certificateKeyId,
      principals: row.principals,
      reason: row.reason,
      revoked_at: row.revokedAt.toISOString(),
    };
  }
}

export class KeyholderRevocationPageDto {
  @ApiProperty({ type: [KeyholderRevocationDto] }) items!: KeyholderRevocationDto[];
  @ApiProperty({ description: 'pass as after= on the next call' }) next_after!: string;
}

export class KeyholderTokenGateDto {
  @ApiProperty({ enum: KEYHOLDER_TOKEN_GATES }) gate!: KeyholderTokenGate;
  @ApiProperty({ example: 'X-Keyholder-Token' }) header!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) updated_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) updated_by!: string | null;

  static from(stored: Stored<KeyholderPolicy>): KeyholderTokenGateDto {
    return {
      gate: stored.value.tokenGate,
      header: 'X-Keyholder-Token',
      updated_at: stored.updatedAt?.toISOString() ?? null,
      updated_by: stored.updatedBy,
    };
  }
}

class PrincipalListDto {
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    example: ['deploy', 'alice'],
    description: 'login names the token may read; null or absent: every login',
  })
  @IsOptional()
  @ValidateIf((o: PrincipalListDto) => o.principals !== null)
  @IsArray()
  @ArrayMaxSize(MAX_TOKEN_PRINCIPALS)
  @ArrayUnique()
  @IsString({ each: true })
  @Matches(PRINCIPAL_NAME_PATTERN, { each: true, message: `each principal must be ${LOGIN_RULE}` })
  principals?: string[] | null;
}

export class CreateKeyholderTokenDto extends PrincipalListDto {
  @ApiProperty({ example: 'web-01', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  // eslint-disable-next-line no-control-regex
  @Matches(/^[^\u0000-\u001f\u007f-\u009f]*$/, {
    message: 'name must not contain control characters',
  })
  name!: string;
}

export class SetKeyholderTokenPrincipalsDto extends PrincipalListDto {}

export class KeyholderTokenDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'first characters of the value' }) token_prefix!: string;
  @ApiProperty({ type: [String], nullable: true }) principals!: string[] | null;
  @ApiProperty() created_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) revoked_by!: string | null;

  static from(token: KeyholderTokenEntity): KeyholderTokenDto {
    return {
      id: token.id,
      name: token.name,
      token_prefix: token.tokenPrefix,
      principals: token.principals,
      created_by: token.createdBy,
      created_at: token.createdAt.toISOString(),
      revoked_at: token.revokedAt?.toISOString() ?? null,
      revoked_by: token.revokedBy,
    };
  }
}

export class KeyholderTokenListDto {
  @ApiProperty({ type: [KeyholderTokenDto] }) items!: KeyholderTokenDto[];
}

export class CreatedKeyholderTokenDto extends KeyholderTokenDto {
  @ApiProperty({ description: 'the value, shown this once; send it as X-Keyholder-Token' })
  token!: string;
}
