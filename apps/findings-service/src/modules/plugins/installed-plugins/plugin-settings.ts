import type { PluginManifest } from '@platform/plugin-sdk';
import { PluginsError } from '../plugins.errors';

/** A settings save: non-secret values (null removes) and secret values ("" = unchanged, null removes). */
export interface SettingsInput {
  settings?: Record<string, unknown>;
  secretSettings?: Record<string, string | null>;
}

export interface SettingsResult {
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
  /** Names whose value changed (secret names included, never their values). */
  changed: string[];
}

const MAX_STRING = 10_000;

/**
 * Applies a save to the current settings under the manifest's schema (docs/plugins/manifest.md,
 * "A setting"): names must be declared; a secret-marked name in `settings` is refused
 * (`plugin_secret_setting_refused`) — secrets are written only through `secret_settings`,
 * where an empty value means unchanged; values must have the declared type.
 */
export function applySettings(
  manifest: PluginManifest,
  current: { settings: Record<string, unknown>; secrets: Record<string, string> },
  input: SettingsInput,
): SettingsResult {
  const schema = new Map(manifest.settings.map((s) => [s.name, s]));
  const settings = { ...current.settings };
  const secrets = { ...current.secrets };
  const changed = new Set<string>();
  const problems: string[] = [];
  const secretInSettings = Object.keys(input.settings ?? {}).filter(
    (name) => schema.get(name)?.secret === true,
  );
  if (secretInSettings.length > 0) {
    throw new PluginsError('plugin_secret_setting_refused', { names: secretInSettings.join(', ') });
  }
  for (const [name, value] of Object.entries(input.settings ?? {})) {
    const setting = schema.get(name);
    if (!setting) {
      problems.push(`unknown setting "${name}"`);
      continue;
    }
    if (value === null) {
      if (name in settings) changed.add(name);
      delete settings[name];
      continue;
    }
    const problem = typeProblem(setting.type, value);
    if (problem) {
      problems.push(`"${name}" ${problem}`);
      continue;
    }
    if (JSON.stringify(settings[name]) !== JSON.stringify(value)) changed.add(name);
    settings[name] = value;
  }
  for (const [name, value] of Object.entries(input.secretSettings ?? {})) {
    const setting = schema.get(name);
    if (!setting) {
      problems.push(`unknown setting "${name}"`);
      continue;
    }
    if (!setting.secret) {
      problems.push(`"${name}" is not a secret setting; send it in settings`);
      continue;
    }
    if (value === '') continue;
    if (value === null) {
      if (name in secrets) changed.add(name);
      delete secrets[name];
      continue;
    }
    if (typeof value !== 'string' || value.length > MAX_STRING) {
      problems.push(`"${name}" must be a string of at most ${MAX_STRING} characters`);
      continue;
    }
    if (secrets[name] !== value) changed.add(name);
    secrets[name] = value;
  }
  if (problems.length > 0) {
    throw new PluginsError('plugin_settings_invalid', { problems: problems.join('; ') });
  }
  return { settings, secrets, changed: [...changed].sort() };
}

/** Required installation settings without a value (per-project ones are set by projects). */
export function missingRequired(
  manifest: PluginManifest,
  settings: Record<string, unknown>,
  secrets: Record<string, string>,
): string[] {
  return manifest.settings
    .filter((s) => s.required && !s.per_project)
    .filter((s) => (s.secret ? !(s.name in secrets) : !(s.name in settings)))
    .map((s) => s.name);
}

function typeProblem(type: string, value: unknown): string | undefined {
  switch (type) {
    case 'string':
      return typeof value === 'string' && value.length <= MAX_STRING
        ? undefined
        : `must be a string of at most ${MAX_STRING} characters`;
    case 'url': {
      if (typeof value !== 'string' || value.length > 2048) return 'must be an http(s) URL';
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || url.protocol === 'http:'
          ? undefined
          : 'must be an http(s) URL';
      } catch {
        return 'must be an http(s) URL';
      }
    }
    case 'integer':
      return Number.isSafeInteger(value) ? undefined : 'must be an integer';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    default:
      return undefined; // json: any JSON value
  }
}
