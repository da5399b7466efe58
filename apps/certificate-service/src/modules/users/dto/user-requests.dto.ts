import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { HUMAN_ROLES, type HumanRole } from '../../../app/access/roles';

export const PASSWORD_MIN_LENGTH = 12;
const PASSWORD_MAX_LENGTH = 256;

export class CreateLocalUserDto {
  @ApiProperty({ example: 'alice@example.com' })
  @IsEmail()
  @MaxLength(320)
  email!: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;

  @ApiPropertyOptional({ enum: HUMAN_ROLES, isArray: true, default: [] })
  @OptionalNotNull()
  @IsArray()
  @ArrayUnique()
  @IsIn(HUMAN_ROLES, {
    each: true,
    message: 'roles must be cert-admin, cert-approver or cert-viewer',
  })
  roles?: HumanRole[];
}

export class SetRolesDto {
  @ApiProperty({ enum: HUMAN_ROLES, isArray: true })
  @IsArray()
  @ArrayUnique()
  @IsIn(HUMAN_ROLES, {
    each: true,
    message: 'roles must be cert-admin, cert-approver or cert-viewer',
  })
  roles!: HumanRole[];
}

export class SetEnabledDto {
  @ApiProperty()
  @IsBoolean()
  enabled!: boolean;
}

export class SetPasswordDto {
  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;
}
