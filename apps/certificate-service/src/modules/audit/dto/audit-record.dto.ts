import { ApiProperty } from '@nestjs/swagger';
import type { AuditRecordEntity } from '../audit-record.entity';

export class AuditRecordDto {
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty() action!: string;
  @ApiProperty({
    description: 'email, `API` for a service account, `device:<serial>`, or `system`',
  })
  actor!: string;
  @ApiProperty({ enum: ['user', 'service_account', 'device', 'system'] }) actor_kind!: string;
  @ApiProperty({ nullable: true, type: String }) target!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) details!: Record<string, unknown>;

  static from(record: AuditRecordEntity): AuditRecordDto {
    return {
      id: String(record.id),
      at: record.at.toISOString(),
      action: record.action,
      actor: record.actor,
      actor_kind: record.actorKind,
      target: record.target,
      details: record.details,
    };
  }
}

export class AuditPageDto {
  @ApiProperty({ type: [AuditRecordDto] }) items!: AuditRecordDto[];
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total!: number;
}
