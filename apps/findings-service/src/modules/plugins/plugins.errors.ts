import { FindingsError } from '../../app/errors/findings-error';

export type PluginsErrorCode =
  | 'plugin_source_not_found'
  | 'plugin_source_native_on_create'
  | 'plugin_source_key_invalid'
  | 'plugin_source_key_locked'
  | 'plugin_source_inactive'
  | 'plugin_catalog_url_refused'
  | 'plugin_catalog_unavailable'
  | 'plugin_catalog_invalid'
  | 'plugin_catalog_signature_invalid'
  | 'installed_plugin_not_found'
  | 'plugin_not_in_catalog'
  | 'plugin_already_installed'
  | 'plugin_sideload_on_json_route'
  | 'plugin_runtime_refused'
  | 'plugin_native_not_permitted'
  | 'plugin_version_older'
  | 'plugin_downgrade_unconfirmed'
  | 'plugin_service_version_unmet'
  | 'plugin_artifact_revoked'
  | 'plugin_artifact_invalid'
  | 'plugin_signature_invalid'
  | 'plugin_manifest_invalid'
  | 'plugin_secret_setting_refused'
  | 'plugin_settings_invalid'
  | 'plugin_config_invalid'
  | 'plugin_config_check_failed'
  | 'plugin_no_pending_change'
  | 'plugin_disabled'
  | 'plugin_runner_unavailable'
  | 'plugin_upload_invalid'
  | 'plugin_artifact_too_large'
  | 'plugin_capability_change_pending'
  // 409 with details.reason: plugin_source_in_use (a source installations come from)
  | 'conflict';

/** The plugins module's one error class (marketplaces, catalogs, installed plugins). */
export class PluginsError extends FindingsError<PluginsErrorCode> {
  constructor(code: PluginsErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
