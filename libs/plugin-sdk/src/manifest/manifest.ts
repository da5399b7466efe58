import { SUPPORTED_WIT_VERSIONS } from '../wit/wit-world';
import {
  CAPABILITIES_BY_RUNTIME,
  PLUGIN_CAPABILITIES,
  PLUGIN_RUNTIMES,
  type PluginCapability,
  type PluginManifest,
  type PluginRuntime,
  type PluginSettingSchema,
  SETTING_TYPES,
  type SettingType,
} from './manifest.types';

/** A manifest that breaks the format; `problems` lists every finding, one line each. */
export class ManifestError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid plugin manifest: ${problems.join('; ')}`);
    this.name = 'ManifestError';
  }
}

const MANIFEST_KEYS = new Set([
  'id',
  'version',
  'capabilities',
  'runtime',
  'wit_version',
  'min_service_version',
  'allowed_hosts',
  'settings',
  'artifact_sha256',
  'description',
]);
const SETTING_KEYS = new Set(['name', 'type', 'required', 'secret', 'per_project', 'description']);

const ID = /^[a-z0-9][a-z0-9._-]{0,99}$/;
const SEMVER = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(-[0-9A-Za-z.-]{1,40})?$/;
const SETTING_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const SHA256 = /^[0-9a-f]{64}$/;
/** A DNS host name of letters, digits and `-`, at least two labels, no trailing dot. */
const HOST =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/**
 * A last label that is a number (`10.0.0.1`, `127.1`, `0x7f000001`): URL parsers read such a
 * host as an IPv4 address, so it is an IP literal, not a DNS name.
 */
const NUMERIC_LAST_LABEL = /(?:^|\.)(?:\d+|0x[0-9a-f]*)$/;
const COMPARATOR = /^(>=|<=|>|<|=)?(\d{1,9})(?:\.(\d{1,9}))?(?:\.(\d{1,9}))?$/;
const MAX_SETTINGS = 100;
const MAX_HOSTS = 50;
const MAX_DESCRIPTION = 2000;

/**
 * Checks a parsed manifest (the JSON of `manifest.json`) and returns it typed; throws
 * ManifestError naming every problem. Unknown keys are refused, so a manifest means exactly
 * what this version of the format says.
 */
export function validateManifest(value: unknown): PluginManifest {
  const problems: string[] = [];
  if (!isObject(value)) throw new ManifestError(['the manifest must be a JSON object']);
  for (const key of Object.keys(value)) {
    if (!MANIFEST_KEYS.has(key)) problems.push(`unknown field "${key}"`);
  }
  const text = (key: string, pattern: RegExp, what: string): string => {
    const field = value[key];
    if (typeof field !== 'string' || !pattern.test(field)) {
      problems.push(`"${key}" must be ${what}`);
      return '';
    }
    return field;
  };
  const id = text('id', ID, 'lower case letters, digits, ".", "_" or "-" (1-100 characters)');
  const version = text('version', SEMVER, 'a semantic version MAJOR.MINOR.PATCH');
  const runtime = value['runtime'];
  if (!PLUGIN_RUNTIMES.includes(runtime as PluginRuntime)) {
    problems.push(`"runtime" must be one of ${PLUGIN_RUNTIMES.join(', ')}`);
  }
  const capabilities = readCapabilities(value['capabilities'], runtime as PluginRuntime, problems);
  const witVersion = value['wit_version'];
  if (typeof witVersion !== 'string' || !SEMVER.test(witVersion)) {
    problems.push('"wit_version" must be a version such as 0.1.0');
  } else if (runtime === 'wasm' && !SUPPORTED_WIT_VERSIONS.includes(witVersion)) {
    problems.push(
      `"wit_version" ${witVersion} is not supported (supported: ${SUPPORTED_WIT_VERSIONS.join(', ')})`,
    );
  }
  const range = value['min_service_version'];
  if (typeof range !== 'string' || parseVersionRange(range) === undefined) {
    problems.push('"min_service_version" must be a version range such as ">=0.33" or ">=0.33 <2"');
  }
  const allowedHosts = readHosts(value['allowed_hosts'], problems);
  const settings = readSettings(value['settings'], problems);
  const digest = text('artifact_sha256', SHA256, 'the lower-case hex SHA-256 of the artifact');
  const description = value['description'];
  if (
    description !== undefined &&
    (typeof description !== 'string' || description.length > MAX_DESCRIPTION)
  ) {
    problems.push(`"description" must be a string of at most ${MAX_DESCRIPTION} characters`);
  }
  if (problems.length > 0) throw new ManifestError(problems);
  return {
    id,
    version,
    capabilities,
    runtime: runtime as PluginRuntime,
    wit_version: witVersion as string,
    min_service_version: range as string,
    allowed_hosts: allowedHosts,
    settings,
    artifact_sha256: digest,
    ...(description === undefined ? {} : { description: description as string }),
  };
}

/** Parses `manifest.json` bytes (UTF-8 JSON) and validates them. */
export function parseManifest(bytes: Uint8Array | string): PluginManifest {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ManifestError([`not JSON: ${(error as Error).message}`]);
  }
  return validateManifest(parsed);
}

/** Names of the secret-marked settings of a manifest. */
export function secretSettingNames(manifest: PluginManifest): string[] {
  return manifest.settings.filter((s) => s.secret === true).map((s) => s.name);
}

/** True when `serviceVersion` (e.g. `0.33.1`) satisfies the manifest's `min_service_version`. */
export function satisfiesServiceVersion(range: string, serviceVersion: string): boolean {
  const comparators = parseVersionRange(range);
  const version = parseVersion(serviceVersion);
  if (!comparators || !version) return false;
  return comparators.every(({ operator, version: bound }) => {
    const order = compareVersions(version, bound);
    switch (operator) {
      case '>=':
        return order >= 0;
      case '>':
        return order > 0;
      case '<=':
        return order <= 0;
      case '<':
        return order < 0;
      case '=':
        return order === 0;
    }
  });
}

type Operator = '>=' | '>' | '<=' | '<' | '=';
type Version = [number, number, number];

function parseVersionRange(range: string): { operator: Operator; version: Version }[] | undefined {
  const parts = range.trim().split(/\s+/);
  if (range.length > 100 || parts.length === 0 || parts.length > 4) return undefined;
  const comparators: { operator: Operator; version: Version }[] = [];
  for (const part of parts) {
    const match = COMPARATOR.exec(part);
    if (!match) return undefined;
    comparators.push({
      operator: (match[1] ?? '=') as Operator,
      version: [Number(match[2]), Number(match[3] ?? 0), Number(match[4] ?? 0)],
    });
  }
  return comparators;
}

function parseVersion(text: string): Version | undefined {
  const match = /^(\d{1,9})\.(\d{1,9})(?:\.(\d{1,9}))?(?:[-+].*)?$/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined;
}

function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function readCapabilities(
  field: unknown,
  runtime: PluginRuntime,
  problems: string[],
): PluginCapability[] {
  if (!Array.isArray(field) || field.length === 0) {
    problems.push('"capabilities" must be a non-empty list');
    return [];
  }
  const capabilities: PluginCapability[] = [];
  for (const item of field) {
    if (!PLUGIN_CAPABILITIES.includes(item as PluginCapability)) {
      problems.push(`unknown capability ${JSON.stringify(item)}`);
    } else if (capabilities.includes(item as PluginCapability)) {
      problems.push(`capability "${String(item)}" is listed twice`);
    } else {
      capabilities.push(item as PluginCapability);
    }
  }
  const allowed = CAPABILITIES_BY_RUNTIME[runtime] as readonly PluginCapability[] | undefined;
  if (allowed) {
    for (const capability of capabilities) {
      if (!allowed.includes(capability)) {
        problems.push(
          capability === 'ticketing_provider'
            ? 'a ticketing provider can never run native'
            : `capability "${capability}" cannot run on runtime "${runtime}"`,
        );
      }
    }
  }
  return capabilities;
}

function readHosts(field: unknown, problems: string[]): string[] {
  if (!Array.isArray(field) || field.length > MAX_HOSTS) {
    problems.push(`"allowed_hosts" must be a list of at most ${MAX_HOSTS} host names`);
    return [];
  }
  const hosts: string[] = [];
  for (const item of field) {
    if (typeof item !== 'string' || !HOST.test(item)) {
      problems.push(
        `allowed host ${JSON.stringify(item)} must be a lower-case DNS name (no scheme, port, path or wildcard)`,
      );
    } else if (NUMERIC_LAST_LABEL.test(item)) {
      problems.push(
        `allowed host ${JSON.stringify(item)} must be a DNS name, not an IP address (an administrator enters an address in a url setting)`,
      );
    } else if (!hosts.includes(item)) {
      hosts.push(item);
    }
  }
  return hosts;
}

function readSettings(field: unknown, problems: string[]): PluginSettingSchema[] {
  if (!Array.isArray(field) || field.length > MAX_SETTINGS) {
    problems.push(`"settings" must be a list of at most ${MAX_SETTINGS} settings`);
    return [];
  }
  const settings: PluginSettingSchema[] = [];
  field.forEach((item, index) => {
    if (!isObject(item)) {
      problems.push(`settings[${index}] must be an object`);
      return;
    }
    for (const key of Object.keys(item)) {
      if (!SETTING_KEYS.has(key)) problems.push(`settings[${index}]: unknown field "${key}"`);
    }
    const name = item['name'];
    if (typeof name === 'string' && name.startsWith('_')) {
      // The service adds reserved members to settings-json (`_ticket` for a ticketing
      // provider, docs/plugins/catalog-plugins.md); a plugin's own setting may not shadow them.
      problems.push(
        `settings[${index}].name ${JSON.stringify(name)}: names starting with "_" are reserved for the service`,
      );
      return;
    }
    if (typeof name !== 'string' || !SETTING_NAME.test(name)) {
      problems.push(`settings[${index}].name must be a lower-case identifier such as api_token`);
      return;
    }
    if (settings.some((s) => s.name === name)) problems.push(`setting "${name}" is listed twice`);
    const type = item['type'];
    if (!SETTING_TYPES.includes(type as SettingType)) {
      problems.push(`setting "${name}": "type" must be one of ${SETTING_TYPES.join(', ')}`);
    }
    for (const flag of ['required', 'secret', 'per_project'] as const) {
      if (item[flag] !== undefined && typeof item[flag] !== 'boolean') {
        problems.push(`setting "${name}": "${flag}" must be true or false`);
      }
    }
    if (item['secret'] === true && type !== 'string') {
      problems.push(`setting "${name}": a secret setting must have type "string"`);
    }
    const description = item['description'];
    if (
      description !== undefined &&
      (typeof description !== 'string' || description.length > MAX_DESCRIPTION)
    ) {
      problems.push(`setting "${name}": "description" must be a string`);
    }
    settings.push({
      name,
      type: type as SettingType,
      ...(item['required'] === true ? { required: true } : {}),
      ...(item['secret'] === true ? { secret: true } : {}),
      ...(item['per_project'] === true ? { per_project: true } : {}),
      ...(typeof description === 'string' ? { description } : {}),
    });
  });
  return settings;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
