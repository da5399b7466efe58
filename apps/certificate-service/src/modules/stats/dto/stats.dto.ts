import { ApiProperty } from '@nestjs/swagger';

export class DeviceStatsDto {
  @ApiProperty() total!: number;
  @ApiProperty() blocked!: number;
}

export class CertificateStatsDto {
  @ApiProperty({ description: 'not revoked and not expired' }) active!: number;
  @ApiProperty() revoked!: number;
  @ApiProperty({ description: 'active, expiring within `expiring_window_days`' })
  expiring_soon!: number;
  @ApiProperty() expired!: number;
  @ApiProperty() expiring_window_days!: number;
}

export class LicenseUsageDto {
  @ApiProperty() active_count!: number;
  @ApiProperty() max_devices!: number;
}

export class StatsDto {
  @ApiProperty({ type: DeviceStatsDto }) devices!: DeviceStatsDto;
  @ApiProperty({
    description: 'count per request status (every status present, 0 when none)',
    type: 'object',
    additionalProperties: { type: 'integer' },
  })
  requests!: Record<string, number>;
  @ApiProperty({ type: CertificateStatsDto }) certificates!: CertificateStatsDto;
  @ApiProperty({ type: LicenseUsageDto }) license!: LicenseUsageDto;
}
