import type { PluginManifest } from '@platform/plugin-sdk';
import { InputValidationError } from '@platform/errors';
import { projectMailProblems } from '../mail/mail-settings';

const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];

/** Settings every channel has per project (spec "Notification channels", common to all). */
export const COMMON_CHANNEL_SETTINGS: Record<string, 'boolean' | 'severity'> = {
  enabled: 'boolean',
  min_severity: 'severity',
  notify_on_close: 'boolean',
  fixed_min_severity: 'severity',
};

export interface ChannelSettingsChange {
  /** Non-secret settings after the change (replacing the previous ones). */
  settings: Record<string, unknown>;
  /** Secret settings given a non-empty value (others keep theirs). */
  secrets: Record<string, string>;
}

/**
 * Checks a PUT body's `settings` against the channel: the common settings and the manifest's
 * `per_project` settings, each of its type. A secret-marked one with an empty value (or null)
 * keeps its stored value; unknown names and wrong types are refused (400, field per setting).
 */
export function checkChannelSettings(
  manifest: PluginManifest,
  input: Record<string, unknown>,
  options: {
    common: boolean;
    /**
     * The installation's settings. For a mail channel (its manifest declares the installation
     * setting `smtp_host`) the project's recipients and own mail server are checked against
     * them: `allow_project_smtp`, `smtp_allowed_hosts` (docs/findings-service/mail.md).
     */
    installation?: Record<string, unknown>;
  } = { common: true },
): ChannelSettingsChange {
  const perProject = new Map(
    manifest.settings.filter((s) => s.per_project).map((s) => [s.name, s] as const),
  );
  const problems: { field: string; problems: string[] }[] = [];
  const settings: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(input)) {
    const field = `settings.${name}`;
    // The common channel settings belong to channels only (not to a WebAssembly plugin's).
    const common = options.common ? COMMON_CHANNEL_SETTINGS[name] : undefined;
    if (common) {
      if (value === null) continue;
      if (common === 'boolean' && typeof value !== 'boolean') {
        problems.push({ field, problems: ['must be true or false'] });
      } else if (common === 'severity' && !SEVERITIES.includes(String(value))) {
        problems.push({ field, problems: [`must be one of ${SEVERITIES.join(', ')}`] });
      } else settings[name] = value;
      continue;
    }
    const setting = perProject.get(name);
    if (!setting) {
      problems.push({ field, problems: ['not a per-project setting of this plugin'] });
      continue;
    }
    if (setting.secret) {
      if (value === null || value === '') continue; // empty: unchanged
      if (typeof value !== 'string' || value.length > 4096) {
        problems.push({ field, problems: ['must be a string of at most 4096 characters'] });
      } else secrets[name] = value;
      continue;
    }
    if (value === null) continue;
    const ok =
      setting.type === 'boolean'
        ? typeof value === 'boolean'
        : setting.type === 'integer'
          ? Number.isInteger(value)
          : setting.type === 'json'
            ? true
            : typeof value === 'string' && value.length <= 4096;
    if (!ok) problems.push({ field, problems: [`must be of type ${setting.type}`] });
    else if (setting.type === 'url' && !/^https?:\/\//.test(String(value))) {
      problems.push({ field, problems: ['must be an http(s) URL'] });
    } else settings[name] = value;
  }
  if (problems.length === 0 && options.installation && isMailChannel(manifest)) {
    for (const { field, problem } of projectMailProblems(options.installation, settings)) {
      problems.push({ field: `settings.${field}`, problems: [problem] });
    }
  }
  if (problems.length > 0) throw new InputValidationError(problems);
  return { settings, secrets };
}

/** A channel whose installation names a mail server: the service sends its mail. */
function isMailChannel(manifest: PluginManifest): boolean {
  return manifest.settings.some((s) => s.name === 'smtp_host' && !s.per_project);
}
