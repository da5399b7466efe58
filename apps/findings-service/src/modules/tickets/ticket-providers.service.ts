import { Injectable } from '@nestjs/common';
import type { InstalledPlugin } from '../plugins/installed-plugins/installed-plugin';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';

/** The installed `ticketing_provider` plugins, enabled or not (any signed-in user reads them). */
@Injectable()
export class TicketProvidersService {
  constructor(private readonly plugins: InstalledPluginsService) {}

  async list(): Promise<InstalledPlugin[]> {
    return (await this.plugins.list())
      .filter((p) => p.capabilities.includes('ticketing_provider'))
      .sort(
        (a, b) => a.catalogPluginId.localeCompare(b.catalogPluginId) || a.id.localeCompare(b.id),
      );
  }
}
