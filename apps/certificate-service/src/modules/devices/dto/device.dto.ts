import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import type { DeviceView } from '../device-view';
import type { PurposeOverrides } from '../purpose-access';

const OVERRIDES_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: { type: 'string', enum: ['allow', 'deny'] },
  description: 'purposes with an explicit override; absent purposes inherit',
};

export class DeviceDto {
  @ApiProperty() serial!: string;
  @ApiProperty({ nullable: true, type: String }) hostname!: string | null;
  @ApiProperty({ nullable: true, type: String }) owner!: string | null;
  @ApiProperty({ enum: PURPOSES, isArray: true }) assigned_purposes!: Purpose[];
  @ApiProperty(OVERRIDES_SCHEMA) purpose_overrides!: PurposeOverrides;
  @ApiProperty({ enum: PURPOSES, isArray: true, description: 'what the device may ask for' })
  effective_purposes!: Purpose[];
  @ApiProperty() blocked!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) blocked_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) agent_version!: string | null;
  @ApiProperty({ nullable: true, type: String }) platform!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_seen_at!: string | null;
  @ApiProperty({ description: 'licence identity (ek:, sn: or pk:)' }) identity_key!: string;
  @ApiProperty() tpm_bound!: boolean;
  @ApiProperty() tpm_pinned!: boolean;
  @ApiProperty() enroll_key_pinned!: boolean;
  @ApiProperty() continuity_key_set!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  enrollment_token_rotated_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static from(view: DeviceView): DeviceDto {
    const d = view.device;
    return {
      serial: d.serial,
      hostname: d.hostname,
      owner: d.owner,
      assigned_purposes: d.assignedPurposes,
      purpose_overrides: view.overrides,
      effective_purposes: view.effectivePurposes,
      blocked: d.blocked,
      blocked_at: d.blockedAt?.toISOString() ?? null,
      agent_version: d.agentVersion,
      platform: d.platform,
      last_seen_at: d.lastSeenAt?.toISOString() ?? null,
      identity_key: d.identityKey,
      tpm_bound: d.tpmEkCertSerial !== null,
      tpm_pinned: d.tpmAkPublic !== null,
      enroll_key_pinned: d.enrollKeyHash !== null,
      continuity_key_set: d.continuityKey !== null,
      enrollment_token_rotated_at: d.enrollmentTokenRotatedAt?.toISOString() ?? null,
      created_at: d.createdAt.toISOString(),
    };
  }
}

export class DevicePageDto {
  @ApiProperty({ type: [DeviceDto] }) items!: DeviceDto[];
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total!: number;
}

export class DevicePurposesDto {
  @ApiProperty() serial!: string;
  @ApiProperty({ enum: PURPOSES, isArray: true }) assigned!: Purpose[];
  @ApiProperty(OVERRIDES_SCHEMA) overrides!: PurposeOverrides;
  @ApiProperty({ enum: PURPOSES, isArray: true }) effective!: Purpose[];

  static from(view: DeviceView): DevicePurposesDto {
    return {
      serial: view.device.serial,
      assigned: view.device.assignedPurposes,
      overrides: view.overrides,
      effective: view.effectivePurposes,
    };
  }
}

export class AgentVersionDto {
  @ApiProperty({ nullable: true, type: String }) agent_version!: string | null;
  @ApiProperty() devices!: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_seen_at!: string | null;
}

export class AgentVersionsDto {
  @ApiProperty({ type: [AgentVersionDto] }) items!: AgentVersionDto[];
}

export class RotatedEnrollmentTokenDto {
  @ApiProperty() serial!: string;
  @ApiProperty({ description: 'shown once; the previous token stops working' })
  enrollment_token!: string;
}
