import { Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { PluginMailSender } from '../mail/plugin-mail.port';
import {
  CVE_CATALOG_PORT,
  NOT_CONFIGURED_PORTS,
  type CveCatalogPort,
} from '../plugin-runner-client/host-call-ports';
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
 * (CVE_CATALOG_PORT, provided globally by modules/enrichment/cve-catalog.module.ts;
 * `not_configured` while no such enricher is enabled, or in a process without that module).
 */
@Module({
  imports: [
    PluginStoreModule,
    PluginRunnerClientModule.register({
      imports: [
        PluginStoreModule,
        MailModule.register({ imports: [PluginStoreModule], secrets: PluginSecretBox }),
      ],
      ports: {
        inject: [
          InstalledPluginSecrets,
          PluginMailSender,
          { token: CVE_CATALOG_PORT, optional: true },
        ],
        useFactory: (
          secrets: InstalledPluginSecrets,
          mail: PluginMailSender,
          cve: CveCatalogPort | undefined,
        ) => ({
          ...NOT_CONFIGURED_PORTS,
          secrets,
          mail,
          cve: cve ?? NOT_CONFIGURED_PORTS.cve,
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
