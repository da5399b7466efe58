import { Module } from '@nestjs/common';
import { PluginsModule } from '../plugins/plugins.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ChannelBackfillController, PluginChannelsController } from './plugin-channels.controller';
import { PluginChannelsRemoval } from './plugin-channels-removal';
import { PluginChannelsRepository } from './plugin-channels.repository';
import { PluginChannelsService } from './plugin-channels.service';
import { ProjectPluginSettingsController } from './project-plugin-settings.controller';
import { ProjectPluginConfig } from './project-plugin-config';
import { ProjectPluginSettingsService } from './project-plugin-settings.service';

/** Channel plugins per project and the channel settings backfill (docs/plugins/channels.md). */
@Module({
  imports: [PluginsModule, NotificationsModule],
  controllers: [
    PluginChannelsController,
    ChannelBackfillController,
    ProjectPluginSettingsController,
  ],
  providers: [
    PluginChannelsRepository,
    PluginChannelsService,
    PluginChannelsRemoval,
    ProjectPluginSettingsService,
    ProjectPluginConfig,
  ],
  // A project's stored plugin settings, for the ticket provider configuration (modules/tickets).
  exports: [ProjectPluginConfig],
})
export class PluginChannelsModule {}
