import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { QueryInt } from '@platform/http';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { DELIVERY_STATES, NOTIFICATION_KINDS, type DeliveryState } from './notification-kinds';
import type { DeliveryView } from './notification-deliveries.repository';

/** GET /projects/{id}/notification-deliveries */
export class ListDeliveriesQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATES })
  @IsOptional()
  @IsIn(DELIVERY_STATES)
  state?: DeliveryState;

  @ApiPropertyOptional({ format: 'uuid', description: 'installed plugin id of the channel' })
  @IsOptional()
  @IsUUID('all')
  plugin_id?: string;

  @QueryInt({ min: 1, max: 100, default: 50 })
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page (same filters)' })
  @IsOptional()
  @IsString()
  @MaxLength(400)
  cursor?: string;
}

export class NotificationDeliveryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) notification_id!: string;
  @ApiProperty({ enum: NOTIFICATION_KINDS }) kind!: string;
  @ApiProperty({ format: 'uuid', description: 'installed plugin id of the channel' })
  plugin_id!: string;
  @ApiProperty() catalog_plugin_id!: string;
  @ApiProperty({ enum: DELIVERY_STATES }) state!: string;
  @ApiProperty({ description: 'attempts that reached the runner' }) attempts!: number;
  @ApiProperty({ format: 'date-time' }) next_attempt_at!: string;
  @ApiProperty({ type: String, nullable: true }) last_error_code!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'scrubbed of secrets, at most 1 000 characters',
  })
  last_error_message!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) delivered_at!: string | null;

  static from(v: DeliveryView): NotificationDeliveryDto {
    return {
      id: v.id,
      notification_id: v.notificationId,
      kind: v.kind,
      plugin_id: v.pluginId,
      catalog_plugin_id: v.catalogPluginId,
      state: v.state,
      attempts: v.attempts,
      next_attempt_at: v.nextAttemptAt.toISOString(),
      last_error_code: v.lastErrorCode,
      last_error_message: v.lastErrorMessage,
      created_at: v.createdAt.toISOString(),
      updated_at: v.updatedAt.toISOString(),
      delivered_at: v.deliveredAt?.toISOString() ?? null,
    };
  }
}

export class NotificationDeliveryPageDto {
  @ApiProperty({ type: [NotificationDeliveryDto] }) items!: NotificationDeliveryDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

/** The `delivery` summary of a channel in GET /projects/{id}/plugin-channels. */
export class ChannelDeliverySummaryDto {
  @ApiProperty({ description: 'deliveries pending or in flight' }) pending!: number;
  @ApiProperty() delivered_24h!: number;
  @ApiProperty() failed_24h!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_failure_at!:
    string | null;
  @ApiProperty({ type: String, nullable: true, description: 'scrubbed of secrets' })
  last_failure_message!: string | null;
}
