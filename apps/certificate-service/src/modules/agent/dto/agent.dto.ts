import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import { AGENT_VERSION_PATTERN } from '../../../app/domain/agent-version';
import type { CertificateRequestEntity } from '../../requests/certificate-request.entity';
import { AgentDirectiveDto } from '../../issuance-directives/dto/issuance-directive.dto';
import type { IssuedSshCertificate } from '../issued-ssh-certificate-reader';
import {
  isTerminalStatus,
  REQUEST_STATUSES,
  type RequestStatus,
} from '../../requests/request-status';

export class RequestStatusDto {
  @ApiProperty({ format: 'uuid' }) request_id!: string;
  @ApiProperty({ enum: REQUEST_STATUSES }) status!: RequestStatus;
  @ApiProperty({ description: 'the status will not change any more' }) terminal!: boolean;
  @ApiProperty({ enum: PURPOSES }) purpose!: Purpose;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) decided_at!: string | null;

  static from(r: CertificateRequestEntity): RequestStatusDto {
    return {
      request_id: r.id,
      status: r.status,
      terminal: isTerminalStatus(r.status),
      purpose: r.purpose,
      created_at: r.createdAt.toISOString(),
      decided_at: r.decidedAt?.toISOString() ?? null,
    };
  }
}

export class CheckinDto {
  @ApiPropertyOptional({ example: '2.4.1' })
  @OptionalNotNull()
  @IsString()
  @Matches(AGENT_VERSION_PATTERN)
  agent_version?: string;
}

export class CheckinResponseDto {
  @ApiProperty({ format: 'uuid' }) request_id!: string;
  @ApiProperty({ format: 'date-time' }) installed_at!: string;
  @ApiProperty({
    type: [AgentDirectiveDto],
    description:
      'open issuance directives of this device, oldest first (docs/certificate-service/issuance-directives.md)',
  })
  issuance_directives!: AgentDirectiveDto[];
  @ApiProperty({
    description:
      'true when an admin asked for a log snapshot: upload one to POST /requests/{id}/logs (docs/certificate-service/log-snapshots.md)',
  })
  upload_logs!: boolean;
  @ApiProperty({
    description:
      'true while the device is blocked (POST /devices/{serial}/revoke): no request of it is approved until POST /devices/{serial}/unblock; the agent stops renewing and checks in at a slower pace (docs/certificate-service/enrollment.md)',
  })
  blocked!: boolean;
}

export class BundleVersionDto {
  @ApiProperty({ description: 'changes whenever the certificate or the CA bundle changes' })
  bundle_version!: string;
}

export class AgentCertificateDto {
  @ApiProperty({ format: 'uuid' }) request_id!: string;
  @ApiProperty({ description: 'lowercase hex' }) serial!: string;
  @ApiProperty({ description: 'PEM' }) certificate_pem!: string;
  @ApiProperty({ description: 'PEM, issuing CA first, root last' }) ca_bundle_pem!: string;
  @ApiProperty({ format: 'date-time' }) not_before!: string;
  @ApiProperty({ format: 'date-time' }) not_after!: string;
  @ApiProperty() bundle_version!: string;
}

/** `GET /requests/{id}/certificate` of an `ssh` request. */
export class AgentSshCertificateDto {
  @ApiProperty({ format: 'uuid' }) request_id!: string;
  @ApiProperty({ enum: ['ssh'] }) purpose!: 'ssh';
  @ApiProperty({ example: 'ssh-42', description: '`ssh-<serial>`: the name in certificate routes' })
  serial!: string;
  @ApiProperty({
    example: '42',
    description: 'the certificate serial (decimal, as ssh-keygen -L shows it)',
  })
  ssh_serial!: string;
  @ApiProperty({
    description:
      'OpenSSH certificate, `<type>-cert-v01@openssh.com <base64>`: the `*-cert.pub` file',
  })
  ssh_certificate!: string;
  @ApiProperty({ description: 'SSH CA public key, authorized-keys line' }) ca_public_key!: string;
  @ApiProperty({ example: 'certsvc:<request id>:<device serial>' }) key_id!: string;
  @ApiProperty({ type: [String] }) principals!: string[];
  @ApiProperty({ format: 'date-time', description: 'valid after (5 minutes before issuance)' })
  not_before!: string;
  @ApiProperty({ format: 'date-time', description: 'valid before (24 hours after issuance)' })
  not_after!: string;
  @ApiProperty() bundle_version!: string;

  static from(
    requestId: string,
    delivered: { certificate: IssuedSshCertificate; version: string },
  ): AgentSshCertificateDto {
    const c = delivered.certificate;
    return {
      request_id: requestId,
      purpose: 'ssh',
      serial: c.ref,
      ssh_serial: c.serial.toString(),
      ssh_certificate: c.certificateText,
      ca_public_key: c.caPublicKey,
      key_id: c.keyId,
      principals: [...c.principals],
      not_before: c.validAfter.toISOString(),
      not_after: c.validBefore.toISOString(),
      bundle_version: delivered.version,
    };
  }
}
