import { ApiProperty } from '@nestjs/swagger';
import { ServiceAccountEntity } from '../service-account.entity';

export class ServiceAccountDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'ci-uploader' }) name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({
    description: 'Public part of the key (`sa_<key_prefix>_...`)',
    example: '1a2b3c4d',
  })
  key_prefix!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) created_by_user_id!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revoked_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at!: string | null;

  static from(a: ServiceAccountEntity): ServiceAccountDto {
    return {
      id: a.id,
      name: a.name,
      description: a.description,
      key_prefix: a.keyPrefix,
      created_by_user_id: a.createdByUserId,
      created_at: a.createdAt.toISOString(),
      revoked_at: a.revokedAt?.toISOString() ?? null,
      last_used_at: a.lastUsedAt?.toISOString() ?? null,
    };
  }
}

export class CreatedServiceAccountDto extends ServiceAccountDto {
  @ApiProperty({
    description: 'The full key. Shown only in this answer; store it now.',
    example: 'sa_1a2b3c4d_3q2-7wZx...',
  })
  api_key!: string;
}
