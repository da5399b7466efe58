import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InstalledPluginRemovals } from '../plugins/installed-plugins/installed-plugin-removals';
import { PluginChannelsRepository } from './plugin-channels.repository';

/** At uninstall, every project's settings and sealed secrets of the plugin go with it. */
@Injectable()
export class PluginChannelsRemoval implements OnModuleInit {
  constructor(
    private readonly removals: InstalledPluginRemovals,
    private readonly repository: PluginChannelsRepository,
  ) {}

  onModuleInit(): void {
    this.removals.register((manager, pluginId) =>
      this.repository.deleteForPlugin(manager, pluginId),
    );
  }
}
