import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import type { DeliveryRow } from '../webhook-deliveries.repository';
import { DELIVERY_STATUSES } from '../webhook-delivery.entity';
import type { WebhookEndpointEntity } from '../webhook-endpoint.entity';
import { WEBHOOK_EVENT_TYPES } from '../webhook-events';

const SUBSCRIBABLE = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'webhook.test');
const SECRET_RULE = '24 to 256 printable ASCII characters, no spaces';

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://hooks.example.com/certsvc', maxLength: 2048 })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    type: [String],
    enum: SUBSCRIBABLE,
    description: 'event types delivered; empty or absent: every type',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @ArrayUnique()
  @IsIn(SUBSCRIBABLE, { each: true })
  event_types?: string[];

  @ApiPropertyOptional({ default: true })
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    description: `signing secret (${SECRET_RULE}); absent: generated. Shown once in the answer, never again`,
  })
  @OptionalNotNull()
  @IsString()
  @MinLength(24)
  @MaxLength(256)
  @Matches(/^[\x21-\x7e]+$/, { message: `secret must be ${SECRET_RULE}` })
  secret?: string;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional({ maxLength: 2048 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ type: [String], enum: SUBSCRIBABLE })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @ArrayUnique()
  @IsIn(SUBSCRIBABLE, { each: true })
  event_types?: string[];

  @ApiPropertyOptional({ description: `new signing secret (${SECRET_RULE}); absent: unchanged` })
  @OptionalNotNull()
  @IsString()
  @MinLength(24)
  @MaxLength(256)
  @Matches(/^[\x21-\x7e]+$/, { message: `secret must be ${SECRET_RULE}` })
  secret?: string;
}

export class SetWebhookEnabledDto {
  @ApiProperty() @IsBoolean() enabled!: boolean;
}

export class WebhookDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [String], description: 'empty: every type' }) event_types!: string[];
  @ApiProperty() enabled!: boolean;
  @ApiProperty() created_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(row: WebhookEndpointEntity): WebhookDto {
    return {
      id: row.id,
      url: row.url,
      description: row.description,
      event_types: row.eventTypes,
      enabled: row.enabled,
      created_by: row.createdBy,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }
}

/** The create answer (and an update that set a secret): the only time the secret is shown. */
export class WebhookWithSecretDto extends WebhookDto {
  @ApiProperty({ description: 'the signing secret; shown only in this answer' }) secret!: string;
}

export class WebhookListDto {
  @ApiProperty({ type: [WebhookDto] }) items!: WebhookDto[];
}

export class WebhookTestQueuedDto {
  @ApiProperty({ format: 'uuid', description: 'the queued delivery (its idempotency key)' })
  delivery_id!: string;
}

export class DeliveriesQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100000, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100000)
  page?: number;
}

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid', description: 'also the X-Certsvc-Delivery idempotency key' })
  id!: string;
  @ApiProperty() event_type!: string;
  @ApiProperty({ format: 'uuid' }) event_id!: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status!: string;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: Number, nullable: true }) last_response_code!: number | null;
  @ApiProperty({ type: String, nullable: true }) last_error!: string | null;
  @ApiProperty({ format: 'date-time' }) next_attempt_at!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', type: String, nullable: true }) delivered_at!: string | null;

  static from(row: DeliveryRow): WebhookDeliveryDto {
    return {
      id: row.id,
      event_type: row.eventType,
      event_id: row.eventId,
      status: row.status,
      attempts: row.attempts,
      last_response_code: row.lastResponseCode,
      last_error: row.lastError,
      next_attempt_at: row.nextAttemptAt.toISOString(),
      created_at: row.createdAt.toISOString(),
      delivered_at: row.deliveredAt ? row.deliveredAt.toISOString() : null,
    };
  }
}

export class WebhookDeliveryPageDto {
  @ApiProperty({ type: [WebhookDeliveryDto] }) items!: WebhookDeliveryDto[];
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
}
