import { Module } from '@nestjs/common';
import { NOT_CONFIGURED_PORTS } from '../plugin-runner-client/host-call-ports';
import { PluginRunnerClientModule } from '../plugin-runner-client/plugin-runner-client.module';
import { InstalledPluginSecrets } from './installed-plugins/installed-plugin-secrets';
import { InstalledPluginRemovals } from './installed-plugins/installed-plugin-removals';
import { InstalledPluginsService } from './installed-plugins/installed-plugins.service';
import { PluginStoreModule } from './installed-plugins/plugin-store.module';

/**
 * Installed plugins for the rest of the service (API and worker): InstalledPluginsService
 * (the InstalledPluginCatalog read interface) and the runner client, whose `get-secret` host
 * call is answered from the installations' sealed secrets.
 */
@Module({
  imports: [
    PluginStoreModule,
    PluginRunnerClientModule.register({
      imports: [PluginStoreModule],
      ports: {
        inject: [InstalledPluginSecrets],
        useFactory: (secrets: InstalledPluginSecrets) => ({ ...NOT_CONFIGURED_PORTS, secrets }),
      },
    }),
  ],
  providers: [InstalledPluginsService, InstalledPluginRemovals],
  exports: [
    InstalledPluginsService,
    InstalledPluginRemovals,
    PluginStoreModule,
    PluginRunnerClientModule,
  ],
})
export class PluginsModule {}
