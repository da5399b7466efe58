import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { REVOCATION_REASON_CODES, type RevocationReason } from '@platform/pki';
import type { RevocationRowOutcome } from '../certificate-revoker';
import type { DeviceRevocation } from '../revocation.service';

const REASONS = Object.keys(REVOCATION_REASON_CODES) as RevocationReason[];

export class RevokeCertificateDto {
  @ApiPropertyOptional({ enum: REASONS, default: 'unspecified' })
  @OptionalNotNull()
  @IsIn(REASONS)
  reason?: RevocationReason;
}

export class RevocationRowDto {
  @ApiProperty() serial!: string;
  @ApiProperty({ enum: ['revoked', 'error'] }) status!: 'revoked' | 'error';
  @ApiPropertyOptional() error?: string;

  static from(o: RevocationRowOutcome): RevocationRowDto {
    return o.status === 'revoked'
      ? { serial: o.serial, status: 'revoked' }
      : { serial: o.serial, status: 'error', error: o.error };
  }
}

/** The SSH cascade of a device revoke. */
export class SshCascadeDto {
  @ApiProperty({ description: 'false: some step failed; repeat the call' }) ok!: boolean;
  @ApiProperty({ type: [String], description: '`ssh-<serial>` revoked by this call' })
  certificates!: string[];
  @ApiProperty({ description: 'raw keys revoked (active ones)' }) keys_revoked!: number;
  @ApiProperty({ description: 'raw keys rejected (pending ones)' }) keys_rejected!: number;
  @ApiProperty({ nullable: true, type: String, description: 'KRL version published by this call' })
  krl_version!: string | null;
  @ApiProperty({ enum: ['certificates', 'keys', 'krl'], isArray: true }) failed!: string[];
}

export class DeviceRevocationDto {
  @ApiProperty() serial!: string;
  @ApiProperty({
    enum: ['revoked', 'partial', 'ssh_keys_revoke_failed'],
    description: '`ssh_keys_revoke_failed` (the SSH cascade failed) overrides the other two',
  })
  status!: 'revoked' | 'partial' | 'ssh_keys_revoke_failed';
  @ApiProperty() blocked!: boolean;
  @ApiProperty() slot_released!: boolean;
  @ApiProperty({ type: [RevocationRowDto] }) certificates!: RevocationRowDto[];
  @ApiProperty({ type: SshCascadeDto }) ssh!: SshCascadeDto;

  static from(r: DeviceRevocation): DeviceRevocationDto {
    return {
      serial: r.serial,
      status: !r.ssh.ok ? 'ssh_keys_revoke_failed' : r.complete ? 'revoked' : 'partial',
      blocked: r.blocked,
      slot_released: r.slotReleased,
      certificates: r.certificates.map(RevocationRowDto.from),
      ssh: {
        ok: r.ssh.ok,
        certificates: r.ssh.certificates,
        keys_revoked: r.ssh.keysRevoked,
        keys_rejected: r.ssh.keysRejected,
        krl_version: r.ssh.krlVersion,
        failed: r.ssh.failed,
      },
    };
  }
}

export class UnblockResultDto {
  @ApiProperty() serial!: string;
  @ApiProperty() blocked!: boolean;
}

export class UserRevocationDto {
  @ApiProperty() identity!: string;
  @ApiProperty({ type: [RevocationRowDto] }) certificates!: RevocationRowDto[];
}
