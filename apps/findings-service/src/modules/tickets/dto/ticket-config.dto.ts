import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
} from 'class-validator';
import { TRACKER_CLOSED_ACTIONS, type TrackerClosedAction } from '../tickets.entities';

export class TicketProviderDto {
  @ApiProperty({ format: 'uuid', description: 'installed plugin id' }) plugin_id!: string;
  @ApiProperty() catalog_plugin_id!: string;
  @ApiProperty({ description: 'the plugin’s catalog id (manifests carry no other name)' })
  name!: string;
  @ApiProperty() version!: string;
  @ApiProperty() enabled!: boolean;
}

export class TicketWebhookDto {
  @ApiProperty({ description: 'a webhook secret has been issued' }) secret_set!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  rotated_at!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'until when the secret before the last rotation is still accepted',
  })
  previous_valid_until!: string | null;
  @ApiProperty({ description: 'the webhook path with `{secret}` in place of the secret' })
  url_template!: string;
}

export class TicketConfigDto {
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null: none chosen' })
  plugin_id!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'the provider’s per-project non-secret settings (secret values never)',
  })
  settings!: Record<string, unknown>;
  @ApiProperty({ type: [String] }) secret_settings_set!: string[];
  @ApiProperty({ type: String, nullable: true }) default_target!: string | null;
  @ApiProperty({ enum: TRACKER_CLOSED_ACTIONS }) tracker_closed_action!: TrackerClosedAction;
  @ApiProperty() sync_status_to_tracker!: boolean;
  @ApiProperty({ type: TicketWebhookDto }) webhook!: TicketWebhookDto;
}

export class PutTicketConfigDto {
  @ApiProperty({ format: 'uuid', description: 'an installed ticketing provider' })
  @IsUUID('all')
  plugin_id!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'the provider’s per_project settings by name; an empty (or null) secret keeps the stored one; a URL must name a host the installation may reach',
  })
  @IsObject()
  settings!: Record<string, unknown>;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  default_target?: string | null;

  @ApiPropertyOptional({ enum: TRACKER_CLOSED_ACTIONS, default: 'none' })
  @IsOptional()
  @IsIn(TRACKER_CLOSED_ACTIONS)
  tracker_closed_action?: TrackerClosedAction;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  sync_status_to_tracker?: boolean;
}

export class RotatedWebhookSecretDto {
  @ApiProperty({ description: 'the new secret: shown only in this answer' }) secret!: string;
  @ApiProperty({ description: 'the webhook path to give the tracker' }) webhook_url!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  previous_valid_until!: string | null;
}
