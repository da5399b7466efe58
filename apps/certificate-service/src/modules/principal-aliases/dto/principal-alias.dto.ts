import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import {
  PRINCIPAL_NAME_MAX_LENGTH,
  PRINCIPAL_NAME_PATTERN,
  personalLogin,
} from '../../../app/domain/principal-name';
import type { AliasKeys } from '../principal-aliases.service';
import type { PrincipalAliasRow } from '../principal-aliases.repository';

export const MAX_ALIAS_MEMBERS = 1000;
const NAME_RULE =
  'a POSIX login name: a lower-case letter or _ first, then lower-case letters, digits, _ or -; 1 to 32 characters';

export class CreatePrincipalAliasDto {
  @ApiProperty({ example: 'deploy', maxLength: PRINCIPAL_NAME_MAX_LENGTH, description: NAME_RULE })
  @IsString()
  @MaxLength(PRINCIPAL_NAME_MAX_LENGTH)
  @Matches(PRINCIPAL_NAME_PATTERN, { message: `name must be ${NAME_RULE}` })
  name!: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['alice@example.com'],
    description: 'people (emails) standing behind the alias',
    maxItems: MAX_ALIAS_MEMBERS,
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ALIAS_MEMBERS)
  @ArrayUnique((m: unknown) => (typeof m === 'string' ? m.toLowerCase() : m))
  @IsEmail({}, { each: true })
  @MaxLength(320, { each: true })
  members?: string[];
}

export class SetPrincipalAliasEnabledDto {
  @ApiProperty() @IsBoolean() enabled!: boolean;
}

export class AddPrincipalAliasMemberDto {
  @ApiProperty({ example: 'bob@example.com', description: 'the person (email)' })
  @IsEmail()
  @MaxLength(320)
  member!: string;
}

export class PrincipalAliasDto {
  @ApiProperty() name!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: [String] }) members!: string[];
  @ApiProperty() created_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(row: PrincipalAliasRow): PrincipalAliasDto {
    return {
      name: row.alias.name,
      enabled: row.alias.enabled,
      members: row.members,
      created_by: row.alias.createdBy,
      created_at: row.alias.createdAt.toISOString(),
      updated_at: row.alias.updatedAt.toISOString(),
    };
  }
}

export class PrincipalAliasListDto {
  @ApiProperty({ type: [PrincipalAliasDto] }) items!: PrincipalAliasDto[];
}

export class AliasKeyDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() owner!: string;
  @ApiProperty() key_type!: string;
  @ApiProperty() fingerprint!: string;
  @ApiProperty({ nullable: true, type: String }) comment!: string | null;
  @ApiProperty({ nullable: true, type: String }) serial!: string | null;
  @ApiProperty({ description: 'authorized_keys form: "<type> <base64>"' }) public_key!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) approved_at!: string | null;
}

export class AliasOwnerDto {
  @ApiProperty({ description: 'member (email)' }) person!: string;
  @ApiProperty({ nullable: true, type: String, description: 'personal login, when valid' })
  login!: string | null;
  @ApiProperty({ description: 'active raw keys of this person' }) keys!: number;
}

export class PrincipalAliasKeysDto {
  @ApiProperty() alias!: string;
  @ApiProperty({ description: 'a disabled alias serves no key to target servers' })
  enabled!: boolean;
  @ApiProperty({ type: [AliasOwnerDto] }) owners!: AliasOwnerDto[];
  @ApiProperty({ type: [AliasKeyDto] }) keys!: AliasKeyDto[];

  static from(result: AliasKeys): PrincipalAliasKeysDto {
    return {
      alias: result.alias.alias.name,
      enabled: result.alias.alias.enabled,
      owners: result.alias.members.map((person) => ({
        person,
        login: personalLogin(person),
        keys: result.keys.filter((k) => k.owner === person).length,
      })),
      keys: result.keys.map((k) => ({
        id: k.id,
        owner: k.owner,
        key_type: k.keyType,
        fingerprint: k.fingerprint,
        comment: k.comment,
        serial: k.deviceSerial,
        public_key: `${k.keyType} ${k.publicKey.toString('base64')}`,
        approved_at: k.approvedAt?.toISOString() ?? null,
      })),
    };
  }
}
