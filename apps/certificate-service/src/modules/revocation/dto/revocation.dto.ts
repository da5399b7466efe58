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

export class DeviceRevocationDto {
  @ApiProperty() serial!: string;
  @ApiProperty({ enum: ['revoked', 'partial'] }) status!: 'revoked' | 'partial';
  @ApiProperty() blocked!: boolean;
  @ApiProperty() slot_released!: boolean;
  @ApiProperty({ type: [RevocationRowDto] }) certificates!: RevocationRowDto[];

  static from(r: DeviceRevocation): DeviceRevocationDto {
    return {
      serial: r.serial,
      status: r.complete ? 'revoked' : 'partial',
      blocked: r.blocked,
      slot_released: r.slotReleased,
      certificates: r.certificates.map(RevocationRowDto.from),
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
