import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import { AgentNetworkDto } from '../../networks/dto/agent-network.dto';
import { EnrollNote } from './enroll-text';
import { DeviceCredentialsDto } from './enroll.dto';

export class DevicePurposesResponseDto {
  @ApiProperty() serial!: string;
  @ApiProperty({
    enum: PURPOSES,
    isArray: true,
    description: 'purposes this device may enroll for',
  })
  purposes!: Purpose[];

  @ApiProperty({
    type: [AgentNetworkDto],
    description:
      'network profiles to install (docs/certificate-service/networks.md): enabled networks whose opt-out does not apply to this platform; empty without the wifi purpose',
  })
  networks!: AgentNetworkDto[];
}

export class PurposeRequestBodyDto extends DeviceCredentialsDto {
  @ApiProperty({ enum: PURPOSES })
  @IsIn(PURPOSES)
  purpose!: Purpose;

  @ApiPropertyOptional({ description: 'shown to the administrator', maxLength: 500 })
  @OptionalNotNull()
  @EnrollNote(500)
  note?: string;
}

export class PurposeRequestResponseDto {
  @ApiProperty({ enum: ['already_allowed', 'pending'] }) status!: 'already_allowed' | 'pending';
  @ApiPropertyOptional({ format: 'uuid' }) request_id?: string;
  @ApiProperty({ enum: PURPOSES }) purpose!: Purpose;
}

export class CrlDto {
  @ApiProperty() issuer!: string;
  @ApiProperty({ description: 'X.509 CRL, PEM' }) pem!: string;
  @ApiProperty({ format: 'date-time' }) this_update!: string;
  @ApiProperty({ format: 'date-time' }) next_update!: string;
}

export class CrlListDto {
  @ApiProperty({ type: [CrlDto] }) crls!: CrlDto[];
}
