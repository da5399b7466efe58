import { ApiProperty } from '@nestjs/swagger';
import { IsBase64, IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import type { LicenseAttestation } from '../license-attestation.service';
import type { ReanchorResult } from '../license-reanchor.service';
import type { LicenseStatus } from '../license-status.service';

export class PurposeSeatsDto {
  @ApiProperty({ enum: PURPOSES }) purpose!: Purpose;
  @ApiProperty({ description: 'seats bought; 0 (meaningless) when seats are not limited' })
  bought!: number;
  @ApiProperty({ description: 'devices holding an active certificate of the purpose' })
  used!: number;
  @ApiProperty() free!: number;
}

export class LicenseStatusDto {
  @ApiProperty({ enum: ['licensed', 'free', 'expired'] }) mode!: LicenseStatus['mode'];
  @ApiProperty({ enum: ['free', 'paid'] }) tier!: LicenseStatus['tier'];
  @ApiProperty() issued_to!: string;
  @ApiProperty() active_count!: number;
  @ApiProperty() max_devices!: number;
  @ApiProperty() high_water!: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expires_at!: string | null;
  @ApiProperty() tamper!: boolean;
  @ApiProperty() tamper_reason!: string;
  @ApiProperty({ description: 'Ed25519 public key of this deployment, base64' })
  deployment_instance_key!: string;
  @ApiProperty() purpose_seats_limited!: boolean;
  @ApiProperty({ type: [PurposeSeatsDto] }) purpose_seats!: PurposeSeatsDto[];

  static from(s: LicenseStatus): LicenseStatusDto {
    return {
      mode: s.mode,
      tier: s.tier,
      issued_to: s.issuedTo,
      active_count: s.activeCount,
      max_devices: s.maxDevices,
      high_water: s.highWater,
      expires_at: s.expiresAt?.toISOString() ?? null,
      tamper: s.tamper,
      tamper_reason: s.tamperReason,
      deployment_instance_key: s.deploymentInstanceKey,
      purpose_seats_limited: s.purposeSeatsLimited,
      purpose_seats: s.purposeSeats,
    };
  }
}

export class DecommissionDto {
  @ApiProperty({
    example: 'sn:PF3ABC12',
    description:
      '`ek:...`, `sn:...` or `pk:...`; `ph:...` for a placeholder slot of a re-anchoring',
  })
  @MaxLength(200)
  @Matches(/^(ek|sn|pk|ph):.+$/, { message: 'identity_key must start with ek:, sn:, pk: or ph:' })
  identity_key!: string;
}

export class DecommissionResultDto {
  @ApiProperty() identity_key!: string;
  @ApiProperty() active_count!: number;
}

export class ActivateLicenseDto {
  @ApiProperty({ description: 'base64 of the `.lic` file (see tools/license/certsvc-license.mjs)' })
  @IsString()
  @MaxLength(65_536)
  @IsBase64()
  license_b64!: string;
}

export class ReanchorResultDto {
  @ApiProperty({ description: 'slots in use after re-anchoring' }) active_count!: number;
  @ApiProperty({ description: '(a) identities counted by the surviving ledger records' })
  recount!: number;
  @ApiProperty({ description: '(b) devices with issued, non-revoked certificates' })
  devices_with_certificates!: number;
  @ApiProperty({ description: '(c) count of the last checkpoint whose signature verifies' })
  checkpoint_count!: number;
  @ApiProperty({ description: 'placeholder slots (`ph:...`) added for missing records' })
  placeholders!: number;

  static from(r: ReanchorResult): ReanchorResultDto {
    return {
      active_count: r.activeCount,
      recount: r.recount,
      devices_with_certificates: r.devicesWithCertificates,
      checkpoint_count: r.checkpointCount,
      placeholders: r.placeholders,
    };
  }
}

export class AttestRequestDto {
  @ApiProperty({
    description: 'a fresh random value of the agent (16 to 256 characters, base64 or hex)',
    minLength: 16,
    maxLength: 256,
  })
  @IsString()
  @MinLength(16)
  @MaxLength(256)
  @Matches(/^[A-Za-z0-9+/=_-]+$/, { message: 'nonce must be base64, base64url or hex' })
  nonce!: string;
}

export class LicenseAttestationDto {
  @ApiProperty({ enum: ['licensed', 'free', 'expired'] }) mode!: LicenseAttestation['mode'];
  @ApiProperty({ description: 'the activated license as uploaded; empty in free mode' })
  license_b64!: string;
  @ApiProperty() nonce!: string;
  @ApiProperty({ description: 'Ed25519 public key of this deployment, base64' })
  deployment_instance_key!: string;
  @ApiProperty({
    description:
      'Ed25519 signature (base64) by the deployment instance key over the UTF-8 bytes of "certsvc-license-attest/v1", nonce and license_b64 joined by NUL',
  })
  signature!: string;

  static from(a: LicenseAttestation): LicenseAttestationDto {
    return {
      mode: a.mode,
      license_b64: a.licenseB64,
      nonce: a.nonce,
      deployment_instance_key: a.deploymentInstanceKey,
      signature: a.signature,
    };
  }
}

export class SeatEnforcementDto {
  @ApiProperty({
    enum: [1, 2, 3],
    description: 'seat check at approval: 1 count only (default), 2 log and highlight, 3 refuse',
  })
  @IsIn([1, 2, 3])
  step!: number;
}
