import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { CertificateDto } from '../../certificates/dto/certificate.dto';
import type { CertificateEntity } from '../../certificates/certificate.entity';
import { REVOCATION_REASON_CODES, type RevocationReason } from '@platform/pki';
import { CA_REVOKE_UNSUPPORTED_WARNING, type RevocationRowOutcome } from '../certificate-revoker';
import type { DeviceRevocation } from '../revocation.service';

const REASONS = Object.keys(REVOCATION_REASON_CODES) as RevocationReason[];

export class RevokeCertificateDto {
  @ApiPropertyOptional({ enum: REASONS, default: 'unspecified' })
  @OptionalNotNull()
  @IsIn(REASONS)
  reason?: RevocationReason;
}

/** `POST /certificates/{serial}/revoke`: the certificate, and the SCEP warning when it applies. */
export class RevokedCertificateDto extends CertificateDto {
  @ApiPropertyOptional({
    description:
      'true: marked revoked here only; the issuer configured for the purpose (SCEP) cannot revoke and the certificate stays valid at the CA',
  })
  ca_revoke_unsupported?: true;
  @ApiPropertyOptional({ description: 'with `ca_revoke_unsupported`: what the admin must do' })
  warning?: string;

  static fromRevocation(r: {
    certificate: CertificateEntity;
    caRevokeUnsupported: boolean;
  }): RevokedCertificateDto {
    const dto = CertificateDto.from(r.certificate);
    return r.caRevokeUnsupported
      ? { ...dto, ca_revoke_unsupported: true, warning: CA_REVOKE_UNSUPPORTED_WARNING }
      : dto;
  }
}

export class RevocationRowDto {
  @ApiProperty() serial!: string;
  @ApiProperty({ enum: ['revoked', 'error'] }) status!: 'revoked' | 'error';
  @ApiPropertyOptional() error?: string;
  @ApiPropertyOptional({
    description:
      'true: marked revoked here only; the issuer of the purpose (SCEP) cannot revoke and the certificate stays valid at the CA',
  })
  ca_revoke_unsupported?: true;
  @ApiPropertyOptional({ description: 'with `ca_revoke_unsupported`: what the admin must do' })
  warning?: string;

  static from(o: RevocationRowOutcome): RevocationRowDto {
    if (o.status === 'error') return { serial: o.serial, status: 'error', error: o.error };
    return o.caRevokeUnsupported
      ? {
          serial: o.serial,
          status: 'revoked',
          ca_revoke_unsupported: true,
          warning: CA_REVOKE_UNSUPPORTED_WARNING,
        }
      : { serial: o.serial, status: 'revoked' };
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
