import { Module } from '@nestjs/common';
import { CveCatalogModule } from '../enrichment/cve-catalog.module';
import { CveCatalog } from '../enrichment/cve-catalog.port';
import { MailModule } from '../mail/mail.module';
import { PluginMailSender } from '../mail/plugin-mail.port';
import { NOT_CONFIGURED_PORTS } from '../plugin-runner-client/host-call-ports';
import { PluginRunnerClientModule } from '../plugin-runner-client/plugin-runner-client.module';
import { InstalledPluginSecrets } from './installed-plugins/installed-plugin-secrets';
import { InstalledPluginRemovals } from './installed-plugins/installed-plugin-removals';
import { InstalledPluginsService } from './installed-plugins/installed-plugins.service';
import { PluginSecretBox } from './installed-plugins/plugin-secret-box';
import { PluginStoreModule } from './installed-plugins/plugin-store.module';

/**
 * Installed plugins for the rest of the service (API and worker): InstalledPluginsService
 * (the InstalledPluginCatalog read interface) and the runner client, whose `get-secret` host
 * call is answered from the installations' sealed secrets and `send-email` by the service's
 * SMTP sender (modules/mail) and `is-cve-known` from the national enricher's catalogue
 * (modules/enrichment/cve-catalog.port.ts; `not_configured` while no such enricher is enabled).
 */
@Module({
  imports: [
    PluginStoreModule,
    PluginRunnerClientModule.register({
      imports: [
        PluginStoreModule,
        MailModule.register({ imports: [PluginStoreModule], secrets: PluginSecretBox }),
        CveCatalogModule,
      ],
      ports: {
        inject: [InstalledPluginSecrets, PluginMailSender, CveCatalog],
        useFactory: (secrets: InstalledPluginSecrets, mail: PluginMailSender, cve: CveCatalog) => ({
          ...NOT_CONFIGURED_PORTS,
          secrets,
          mail,
          cve,
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
