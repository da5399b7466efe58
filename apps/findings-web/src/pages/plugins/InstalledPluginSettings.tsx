import { PluginSettingsForm } from '../../components/PluginSettingsForm';
import { useI18n } from '../../i18n/i18n';
import { useSavePluginSettings, type InstalledPlugin } from './api/installed-plugins';

/** The plugin's installation settings (its non-per-project ones); secrets are write-only. */
export function InstalledPluginSettings({ plugin }: { plugin: InstalledPlugin }) {
  const { t } = useI18n();
  const save = useSavePluginSettings(plugin.id);
  return (
    <PluginSettingsForm
      label={`${t('plugins.settings')} ${plugin.catalog_plugin_id}`}
      schema={(plugin.settings_schema ?? []).filter((s) => !s.per_project)}
      stored={plugin.settings}
      secretsSet={plugin.secret_settings_set ?? []}
      onSave={(values) => save.mutate(values)}
      saving={save.isPending}
      error={save.error}
    />
  );
}
