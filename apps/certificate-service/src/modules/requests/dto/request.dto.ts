import { ApiProperty } from '@nestjs/swagger';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import { REQUEST_STATUSES, type RequestStatus } from '../request-status';
import type { RequestRow } from '../requests.repository';

export class CertificateRequestDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() serial!: string;
  @ApiProperty({ enum: PURPOSES }) purpose!: Purpose;
  @ApiProperty({ enum: REQUEST_STATUSES }) status!: RequestStatus;
  @ApiProperty({ description: '`device:<serial>` or the user identity' }) requested_by!: string;
  @ApiProperty({ nullable: true, type: String }) user_identity!: string | null;
  @ApiProperty({ nullable: true, type: String }) upn!: string | null;
  @ApiProperty({ nullable: true, type: String }) sid!: string | null;
  @ApiProperty({ description: 'the device was blocked when the request arrived (permanent)' })
  registered_during_block!: boolean;
  @ApiProperty({ enum: ['rsa', 'ec', 'ed25519'], description: '`ed25519` only for `ssh`' })
  key_algorithm!: 'rsa' | 'ec' | 'ed25519';
  @ApiProperty({ description: 'SHA-256 of the public key (hex)' }) public_key_hash!: string;
  @ApiProperty({ nullable: true, type: String }) subject_common_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) agent_version!: string | null;
  @ApiProperty() source_auth!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'app attestation verdict of POST /enroll: verified, missing, invalid, not_applicable; null for other requests',
  })
  app_attest!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) decided_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) decided_by!: string | null;
  @ApiProperty({ nullable: true, type: String }) status_reason!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) installed_at!: string | null;

  static from({ request: r, serial }: RequestRow): CertificateRequestDto {
    return {
      id: r.id,
      serial,
      purpose: r.purpose,
      status: r.status,
      requested_by: r.requestedBy,
      user_identity: r.userIdentity,
      upn: r.upn,
      sid: r.sid,
      registered_during_block: r.registeredDuringBlock,
      key_algorithm: r.keyAlgorithm,
      public_key_hash: r.publicKeyHash,
      subject_common_name: r.subjectCommonName,
      agent_version: r.agentVersion,
      source_auth: r.sourceAuth,
      app_attest: r.appAttest ?? null,
      created_at: r.createdAt.toISOString(),
      decided_at: r.decidedAt?.toISOString() ?? null,
      decided_by: r.decidedBy,
      status_reason: r.statusReason,
      installed_at: r.installedAt?.toISOString() ?? null,
    };
  }
}

export class CertificateRequestPageDto {
  @ApiProperty({ type: [CertificateRequestDto] }) items!: CertificateRequestDto[];
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total!: number;
}
