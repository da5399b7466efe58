import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PluginSourceEntity } from '../marketplaces/plugin-source.entity';
import { InstalledPluginEntity } from './installed-plugin.entity';
import { InstalledPluginSecrets } from './installed-plugin-secrets';
import { InstalledPluginsRepository } from './installed-plugins.repository';
import { PluginArtifactEntity } from './plugin-artifact.entity';
import { PluginSecretBox } from './plugin-secret-box';

/** Storage of installed plugins (rows, artifacts, sealed secrets) and the secrets host port. */
@Module({
  imports: [
    TypeOrmModule.forFeature([PluginSourceEntity, InstalledPluginEntity, PluginArtifactEntity]),
  ],
  providers: [InstalledPluginsRepository, PluginSecretBox, InstalledPluginSecrets],
  exports: [InstalledPluginsRepository, PluginSecretBox, InstalledPluginSecrets],
})
export class PluginStoreModule {}
