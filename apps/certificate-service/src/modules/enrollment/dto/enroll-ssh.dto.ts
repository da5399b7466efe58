import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { MAX_SSH_PUBLIC_KEY_TEXT, SSH_KEY_TYPES, type SshKeyType } from '@platform/pki';
import { AGENT_VERSION_PATTERN } from '../../../app/domain/agent-version';
import { AGENT_VERSION_MAX_LENGTH, DeviceCredentialsDto } from './enroll.dto';

export class EnrollSshDto extends DeviceCredentialsDto {
  @ApiProperty({
    description:
      'OpenSSH public key to certify: an authorized_keys line `<type> <base64> [comment]` or the bare base64 blob; ' +
      `types ${SSH_KEY_TYPES.join(', ')} (RSA 2048-16384 bits)`,
    example: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG... alice@laptop',
    maxLength: MAX_SSH_PUBLIC_KEY_TEXT,
  })
  @IsString()
  @MaxLength(MAX_SSH_PUBLIC_KEY_TEXT)
  public_key!: string;

  @ApiPropertyOptional({ maxLength: AGENT_VERSION_MAX_LENGTH })
  @OptionalNotNull()
  @IsString()
  @MaxLength(AGENT_VERSION_MAX_LENGTH)
  @Matches(AGENT_VERSION_PATTERN)
  agent_version?: string;
}

export class EnrollSshResponseDto {
  @ApiProperty({ format: 'uuid' }) request_id!: string;
  @ApiProperty({ enum: ['pending'] }) status!: 'pending';
  @ApiProperty({ enum: ['ssh'] }) purpose!: 'ssh';
  @ApiProperty({ enum: SSH_KEY_TYPES }) key_type!: SshKeyType;
  @ApiProperty({
    example: 'SHA256:2f3...',
    description: 'of the public key, as ssh-keygen -l prints it',
  })
  fingerprint!: string;
  @ApiProperty({ description: 'shown once; fetch the certificate with it' }) agent_secret!: string;
}
