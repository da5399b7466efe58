import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { AGENT_VERSION_PATTERN } from '../../../app/domain/agent-version';
import type { UserPurpose } from '../user-enrollment.service';
import { EnrollText } from './enroll-text';
import { AGENT_VERSION_MAX_LENGTH, DeviceCredentialsDto } from './enroll.dto';

export class EnrollUserDto extends DeviceCredentialsDto {
  @ApiProperty({ description: 'PKCS#10 CSR, PEM' })
  @IsString()
  @MaxLength(24_000)
  csr!: string;

  @ApiProperty({ enum: ['user_mtls', 'ad_logon'] })
  @IsIn(['user_mtls', 'ad_logon'])
  purpose!: UserPurpose;

  @ApiProperty({ example: 'alice@example.com', description: 'user identity on the device' })
  @EnrollText(320)
  user!: string;

  @ApiPropertyOptional({ example: 'alice@corp.example.com', description: 'required for ad_logon' })
  @ValidateIf((o: EnrollUserDto) => o.purpose === 'ad_logon' || o.upn !== undefined)
  @EnrollText(320)
  @Matches(/^[^\s@]+@[^\s@]+$/)
  upn?: string;

  @ApiPropertyOptional({ example: 'S-1-5-21-1004336348-1177238915-682003330-512' })
  @OptionalNotNull()
  @IsString()
  @Matches(/^S-1-\d{1,13}(-\d{1,10}){1,15}$/)
  sid?: string;

  @ApiPropertyOptional({ maxLength: AGENT_VERSION_MAX_LENGTH })
  @OptionalNotNull()
  @IsString()
  @MaxLength(AGENT_VERSION_MAX_LENGTH)
  @Matches(AGENT_VERSION_PATTERN)
  agent_version?: string;
}

export class EnrollUserResponseDto {
  @ApiProperty({ format: 'uuid' }) request_id!: string;
  @ApiProperty({ enum: ['pending'] }) status!: 'pending';
  @ApiProperty({ enum: ['user_mtls', 'ad_logon'] }) purpose!: UserPurpose;
  @ApiProperty({ description: 'shown once' }) agent_secret!: string;
}
