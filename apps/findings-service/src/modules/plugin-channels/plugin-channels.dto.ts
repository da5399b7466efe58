import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional } from 'class-validator';
import { ChannelDeliverySummaryDto } from '../notifications/notification-deliveries.dto';
import { PluginSettingSchemaDto } from '../plugins/installed-plugins/dto/installed-plugin.dto';

export class ProjectChannelDto {
  @ApiProperty({
    format: 'uuid',
    description: 'installed plugin id (`plugin_id` of the config routes)',
  })
  plugin_id!: string;
  @ApiProperty() catalog_plugin_id!: string;
  @ApiProperty() version!: string;
  @ApiProperty({ description: 'the project has settings for this channel' }) configured!: boolean;
  @ApiProperty({ description: 'the project setting `enabled` is true' }) enabled!: boolean;
  @ApiProperty({
    type: [PluginSettingSchemaDto],
    description:
      'the channel’s per-project settings (its manifest’s `per_project` ones; the common `enabled`, `min_severity`, `notify_on_close`, `fixed_min_severity` are not listed)',
  })
  settings_schema!: PluginSettingSchemaDto[];
  @ApiProperty({
    type: ChannelDeliverySummaryDto,
    description: 'the project’s notification deliveries to this channel',
  })
  delivery!: ChannelDeliverySummaryDto;
}

export class ChannelConfigDto {
  @ApiProperty({ format: 'uuid' }) plugin_id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'non-secret settings (secret values are never returned)',
  })
  settings!: Record<string, unknown>;
  @ApiProperty({ type: [String], description: 'secret settings that have a value' })
  secret_settings_set!: string[];
}

export class PutChannelConfigDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'enabled, min_severity, notify_on_close, fixed_min_severity and the channel’s per-project settings; an empty secret keeps the stored one',
  })
  @IsObject()
  settings!: Record<string, unknown>;
}

export class ProjectPluginSettingsDto {
  @ApiProperty({ format: 'uuid' }) plugin_id!: string;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "the plugin's non-secret per_project settings (secret values are never returned)",
  })
  settings!: Record<string, unknown>;
  @ApiProperty({
    type: [String],
    description: 'per_project secret settings that have a value for this project',
  })
  secret_settings_set!: string[];
}

export class PutProjectPluginSettingsDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "the plugin's per_project settings by name; an empty (or null) secret keeps the stored one",
  })
  @IsObject()
  settings!: Record<string, unknown>;
}

export class ChannelBackfillQueryDto {
  @ApiProperty({ enum: ['mattermost', 'maxru'] })
  @IsIn(['mattermost', 'maxru'])
  channel!: 'mattermost' | 'maxru';

  @ApiPropertyOptional({ enum: ['dry-run', 'final'], default: 'dry-run' })
  @IsOptional()
  @IsIn(['dry-run', 'final'])
  mode?: 'dry-run' | 'final';
}

export class ChannelBackfillDto {
  @ApiProperty({ enum: ['mattermost', 'maxru'] }) channel!: string;
  @ApiProperty({ enum: ['dry-run', 'final'] }) mode!: string;
  @ApiProperty({ format: 'uuid' }) plugin_id!: string;
  @ApiProperty({ description: 'projects moved (dry run: that would be moved)' }) moved!: number;
  @ApiProperty({ description: 'projects whose old settings lack the channel address' })
  skipped!: number;
  @ApiProperty({ description: 'projects that already have plugin settings (left as they are)' })
  already_configured!: number;
}
