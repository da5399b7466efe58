import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PluginAuditEventEntity } from './audit/plugin-audit-event.entity';
import { PluginAuditLog } from './audit/plugin-audit.log';
import { PluginAuditRepository } from './audit/plugin-audit.repository';
import { CatalogFetcher } from './catalog/catalog-fetcher';
import { PluginCatalogService } from './catalog/plugin-catalog.service';
import { InstalledPluginsController } from './installed-plugins/installed-plugins.controller';
import { PluginConfigurationService } from './installed-plugins/plugin-configuration.service';
import { PluginInstallService } from './installed-plugins/plugin-install.service';
import { PluginUninstallService } from './installed-plugins/plugin-uninstall.service';
import { PluginVersionsService } from './installed-plugins/plugin-versions.service';
import { PluginMarketplacesController } from './marketplaces/plugin-marketplaces.controller';
import { PluginMarketplacesService } from './marketplaces/plugin-marketplaces.service';
import { PluginSourceEntity } from './marketplaces/plugin-source.entity';
import { PluginSourcesRepository } from './marketplaces/plugin-sources.repository';
import { PluginsModule } from './plugins.module';

/**
 * Plugin administration over HTTP (API process): catalog sources, catalogs, the install
 * lifecycle (docs/plugins/installation.md, docs/plugins/catalog.md).
 */
@Module({
  imports: [PluginsModule, TypeOrmModule.forFeature([PluginSourceEntity, PluginAuditEventEntity])],
  controllers: [PluginMarketplacesController, InstalledPluginsController],
  providers: [
    PluginSourcesRepository,
    PluginAuditRepository,
    PluginAuditLog,
    CatalogFetcher,
    PluginCatalogService,
    PluginMarketplacesService,
    PluginInstallService,
    PluginConfigurationService,
    PluginVersionsService,
    PluginUninstallService,
  ],
  exports: [PluginMarketplacesService, PluginAuditLog],
})
export class PluginAdminModule {}
