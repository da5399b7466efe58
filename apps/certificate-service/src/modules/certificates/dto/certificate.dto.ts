import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import type { CertificateEntity } from '../certificate.entity';
import {
  CERTIFICATE_STATUSES,
  KEY_PROTECTION_LEVELS,
  type CertificateStatus,
  type KeyProtectionLevel,
} from '../certificate-status';

export class KeyProtectionDto {
  @ApiProperty({ enum: KEY_PROTECTION_LEVELS })
  @IsIn(KEY_PROTECTION_LEVELS)
  level!: KeyProtectionLevel;
}

export class CertificateDto {
  @ApiProperty({ description: 'lowercase hex' }) serial!: string;
  @ApiProperty({ format: 'uuid' }) request_id!: string;
  @ApiProperty({ enum: PURPOSES }) purpose!: Purpose;
  @ApiProperty() subject!: string;
  @ApiProperty({ enum: CERTIFICATE_STATUSES }) status!: CertificateStatus;
  @ApiProperty({ format: 'date-time' }) not_before!: string;
  @ApiProperty({ format: 'date-time' }) not_after!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) revocation_reason!: string | null;
  @ApiProperty() issuer_kind!: string;
  @ApiProperty({ enum: KEY_PROTECTION_LEVELS }) key_protection!: KeyProtectionLevel;

  static from(c: Omit<CertificateEntity, 'der' | 'chainPem'>): CertificateDto {
    return {
      serial: c.serial,
      request_id: c.requestId,
      purpose: c.purpose,
      subject: c.subject,
      status: c.status,
      not_before: c.notBefore.toISOString(),
      not_after: c.notAfter.toISOString(),
      revoked_at: c.revokedAt?.toISOString() ?? null,
      revocation_reason: c.revocationReason,
      issuer_kind: c.issuerKind,
      key_protection: c.keyProtection,
    };
  }
}
