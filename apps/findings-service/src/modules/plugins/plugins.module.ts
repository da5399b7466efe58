import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { PluginMailSender } from '../mail/plugin-mail.port';
import { NOT_CONFIGURED_PORTS } from '../plugin-runner-client/host-call-ports';
import { PluginRunnerClientModule } from '../plugin-runner-client/plugin-runner-client.module';
import { InstalledPluginSecrets } from './installed-plugins/installed-plugin-secrets';
import { InstalledPluginRemovals } from './installed-plugins/installed-plugin-removals';
import { InstalledPluginsService } from './installed-plugins/installed-plugins.service';
import { PluginStoreModule } from './installed-plugins/plugin-store.module';

/**
 * Installed plugins for the rest of the service (API and worker): InstalledPluginsService
 * (the InstalledPluginCatalog read interface) and the runner client, whose `get-secret` host
 * call is answered from the installations' sealed secrets and `send-email` by the service's
 * SMTP sender (modules/mail). `is-cve-known` stays `not_configured` until the national
 * enricher's catalogue port (modules/enrichment/cve-catalog.port.ts) is wired here as `cve`.
 */
@Module({
  imports: [
    PluginStoreModule,
    PluginRunnerClientModule.register({
      imports: [PluginStoreModule, MailModule],
      ports: {
        inject: [InstalledPluginSecrets, PluginMailSender],
        useFactory: (secrets: InstalledPluginSecrets, mail: PluginMailSender) => ({
          ...NOT_CONFIGURED_PORTS,
          secrets,
          mail,
        }),
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
