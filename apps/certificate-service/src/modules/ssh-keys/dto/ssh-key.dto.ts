import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { SERIAL_PATTERN } from '../../../app/domain/device-serial';
import { PagingQueryDto } from '../../../app/http/paging.dto';
import {
  authorizedKeyOf,
  MAX_PUBLIC_KEY_LINE,
  SUPPORTED_SSH_KEY_TYPES,
} from '../openssh-public-key';
import {
  SSH_KEY_APPROVALS,
  SSH_KEY_BINDING_VERDICTS,
  SSH_KEY_STATES,
  type SshKeyApproval,
  type SshKeyBindingVerdict,
  type SshKeyEntity,
  type SshKeyState,
} from '../ssh-key.entity';
import type { SshKeyFilter, SshKeyRow } from '../ssh-keys.repository';

// eslint-disable-next-line no-control-regex
const ONE_LINE = /^[^\u0000-\u001f\u007f-\u009f]*$/;

/** Serial and enrollment token: how a device authenticates on `/enroll/ssh-key*`. */
export class SshKeyDeviceCredentialsDto {
  @ApiProperty({ example: 'PF3XYZ12', description: 'serial claimed by the agent' })
  @IsString()
  @Matches(SERIAL_PATTERN)
  serial!: string;

  @ApiProperty({ description: 'returned by the first POST /enroll, rotatable by an administrator' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  enrollment_token!: string;
}

export class RegisterSshKeyDto extends SshKeyDeviceCredentialsDto {
  @ApiProperty({
    description: `one authorized_keys line without options: "<type> <base64> [comment]"; types: ${SUPPORTED_SSH_KEY_TYPES.join(', ')}`,
    example: 'sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t... alice@laptop',
    maxLength: MAX_PUBLIC_KEY_LINE,
  })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_PUBLIC_KEY_LINE)
  public_key!: string;

  @ApiPropertyOptional({ maxLength: 255, description: "replaces the line's comment" })
  @OptionalNotNull()
  @IsString()
  @MaxLength(255)
  @Matches(ONE_LINE, { message: 'comment must not contain control characters' })
  comment?: string;

  @ApiPropertyOptional({
    maxLength: 320,
    description:
      'person the key belongs to (email or UPN); compared with the device owner by the binding check',
  })
  @OptionalNotNull()
  @IsString()
  @MinLength(3)
  @MaxLength(320)
  @Matches(/^[^\s@]+@[^\s@]+$/, { message: 'user must be an email address or UPN' })
  user?: string;
}

/** What a device sees of its own keys. */
export class DeviceSshKeyDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() key_type!: string;
  @ApiProperty({ example: 'SHA256:2ZBm2y0k0f8rXbkdbPnvk0SOL9mVxl3KJ2Ri4tC1pZk' })
  fingerprint!: string;
  @ApiProperty({ nullable: true, type: String }) comment!: string | null;
  @ApiProperty({ enum: SSH_KEY_STATES }) state!: SshKeyState;
  @ApiProperty({ enum: SSH_KEY_BINDING_VERDICTS }) binding_verdict!: SshKeyBindingVerdict;
  @ApiProperty({ nullable: true, type: String }) status_reason!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) approved_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at!: string | null;

  static from(key: SshKeyEntity): DeviceSshKeyDto {
    return {
      id: key.id,
      key_type: key.keyType,
      fingerprint: key.fingerprint,
      comment: key.comment,
      state: key.state,
      binding_verdict: key.bindingVerdict,
      status_reason: key.statusReason,
      created_at: key.createdAt.toISOString(),
      approved_at: key.approvedAt?.toISOString() ?? null,
      revoked_at: key.revokedAt?.toISOString() ?? null,
    };
  }
}

export class DeviceSshKeyListDto {
  @ApiProperty() serial!: string;
  @ApiProperty({ type: [DeviceSshKeyDto] }) keys!: DeviceSshKeyDto[];
}

/** The administrator's view of a key. */
export class SshKeyDto extends DeviceSshKeyDto {
  @ApiProperty({ nullable: true, type: String, description: 'serial of the registering device' })
  serial!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'person the key is bound to' })
  owner!: string | null;
  @ApiProperty({ description: 'authorized_keys form: "<type> <base64>"' }) public_key!: string;
  @ApiProperty({ enum: SSH_KEY_APPROVALS, nullable: true }) approval!: SshKeyApproval | null;
  @ApiProperty({ nullable: true, type: String }) binding_detail!: string | null;
  @ApiProperty({ nullable: true, type: String }) approved_by!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) rejected_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) rejected_by!: string | null;
  @ApiProperty({ nullable: true, type: String }) revoked_by!: string | null;

  static fromRow(row: SshKeyRow): SshKeyDto {
    const key = row.key;
    return {
      ...DeviceSshKeyDto.from(key),
      serial: row.serial,
      owner: key.owner,
      public_key: authorizedKeyOf(key.keyType, key.publicKey),
      approval: key.approval,
      binding_detail: key.bindingDetail,
      approved_by: key.approvedBy,
      rejected_at: key.rejectedAt?.toISOString() ?? null,
      rejected_by: key.rejectedBy,
      revoked_by: key.revokedBy,
    };
  }
}

export class SshKeyPageDto {
  @ApiProperty({ type: [SshKeyDto] }) items!: SshKeyDto[];
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total!: number;
}

export class SshKeyQueryDto extends PagingQueryDto {
  @ApiPropertyOptional({ enum: SSH_KEY_STATES })
  @IsOptional()
  @IsIn(SSH_KEY_STATES)
  state?: SshKeyState;

  @ApiPropertyOptional({ description: 'exact device serial' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  serial?: string;

  @ApiPropertyOptional({ description: 'exact owner email' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  owner?: string;

  @ApiPropertyOptional({ enum: SUPPORTED_SSH_KEY_TYPES })
  @IsOptional()
  @IsIn(SUPPORTED_SSH_KEY_TYPES)
  key_type?: string;

  @ApiPropertyOptional({ example: 'SHA256:2ZBm2y0k0f8rXbkdbPnvk0SOL9mVxl3KJ2Ri4tC1pZk' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  fingerprint?: string;
}

export function sshKeyFilterOf(query: SshKeyQueryDto): SshKeyFilter {
  return {
    state: query.state,
    serial: query.serial,
    owner: query.owner?.toLowerCase(),
    keyType: query.key_type,
    fingerprint: query.fingerprint,
  };
}

/** Optional reason of a reject or revoke. */
export class SshKeyDecisionDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(255)
  @Matches(ONE_LINE, { message: 'reason must not contain control characters' })
  reason?: string;
}

export class SshKeyRevocationDto extends SshKeyDto {
  @ApiProperty({
    enum: ['revoked', 'rejected'],
    description: 'an active key is revoked, a pending one rejected',
  })
  outcome!: 'revoked' | 'rejected';
}
