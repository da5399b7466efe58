import { join } from 'node:path';
import type { PluginCapability } from '../manifest/manifest.types';

/** The WIT package of the plugin world (`libs/plugin-sdk/wit/plugin.wit`). */
export const WIT_PACKAGE = 'findsvc:plugin';
/** The version this SDK builds against; `wit_version` of the manifests it writes. */
export const WIT_VERSION = '0.1.0';
/** Versions of the world a host of this SDK can run. */
export const SUPPORTED_WIT_VERSIONS: readonly string[] = [WIT_VERSION];

/** The directory holding the WIT package (`plugin.wit`), for componentize-js and docs. */
export function witDirectory(): string {
  return join(__dirname, '../../wit');
}

/**
 * Interfaces a tier-1 component may import, with and without the version suffix (jco's
 * glue looks the unversioned name up; the component names the versioned one). Anything else
 * — every `wasi:*` interface included — is refused at load.
 */
export function supportedImports(version: string = WIT_VERSION): string[] {
  return ['host', 'types'].flatMap((name) => [
    `${WIT_PACKAGE}/${name}@${version}`,
    `${WIT_PACKAGE}/${name}`,
  ]);
}

/** A WIT value type, as jco's JavaScript bindings present it (field names in camelCase). */
export type WitType =
  | 'string'
  | 'bool'
  | 'u16'
  | 'u32'
  | { option: WitType }
  | { list: WitType }
  | { record: { [field: string]: WitType } }
  | { enum: readonly string[] };

const option = (type: WitType): WitType => ({ option: type });
const list = (type: WitType): WitType => ({ list: type });

/** `types.finding`. */
export const FINDING_TYPE: WitType = {
  record: {
    id: 'string',
    severity: 'string',
    rule: 'string',
    description: 'string',
    scanner: 'string',
    status: 'string',
    cve: option('string'),
    cwe: option('string'),
    host: option('string'),
    ip: option('string'),
    port: option('u16'),
    protocol: option('string'),
    url: option('string'),
    filePath: option('string'),
    component: option('string'),
    componentVersion: option('string'),
  },
};
const HEADER_TYPE: WitType = { record: { name: 'string', value: 'string' } };
export const TASK_STATUSES = ['open', 'in-progress', 'resolved', 'closed'] as const;

/** One exported function: its WIT name, its JS name and its parameters after `ctx`. */
export interface WitOperation {
  name: string;
  js: string;
  params: { name: string; type: WitType }[];
}

/** One capability's export interface. */
export interface CapabilityExport {
  /** WIT interface name, e.g. `finding-enricher`. */
  interface: string;
  /** Name of the export in jco's bindings, e.g. `findingEnricher`. */
  js: string;
  /** The SDK's world for a plugin with only this capability. */
  world: string;
  operations: WitOperation[];
}

const op = (name: string, params: { name: string; type: WitType }[] = []): WitOperation => ({
  name,
  js: name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
  params,
});

/**
 * The export interface of every tier-1 capability. Every operation's first parameter is
 * `ctx: call-context`, supplied by the host; `params` are the ones the caller provides.
 */
export const CAPABILITY_EXPORTS: Partial<Record<PluginCapability, CapabilityExport>> = {
  finding_enricher: {
    interface: 'finding-enricher',
    js: 'findingEnricher',
    world: 'enricher',
    operations: [op('enrich', [{ name: 'finding', type: FINDING_TYPE }])],
  },
  finding_source: {
    interface: 'finding-source',
    js: 'findingSource',
    world: 'finding-source-plugin',
    operations: [op('poll')],
  },
  config_validator: {
    interface: 'config-validator',
    js: 'configValidator',
    world: 'config-validator-plugin',
    operations: [op('validate')],
  },
  ticketing_provider: {
    interface: 'ticketing-provider',
    js: 'ticketingProvider',
    world: 'ticketing',
    operations: [
      op('create-task', [
        { name: 'target', type: option('string') },
        { name: 'finding', type: FINDING_TYPE },
      ]),
      op('create-group-task', [
        { name: 'target', type: option('string') },
        { name: 'title', type: 'string' },
        { name: 'findings', type: list(FINDING_TYPE) },
      ]),
      op('add-comment', [
        { name: 'taskId', type: 'string' },
        { name: 'body', type: 'string' },
      ]),
      op('transition', [
        { name: 'taskId', type: 'string' },
        { name: 'status', type: { enum: TASK_STATUSES } },
      ]),
      op('read-status', [{ name: 'taskId', type: 'string' }]),
      op('build-link', [{ name: 'taskId', type: 'string' }]),
      op('parse-webhook', [
        { name: 'headers', type: list(HEADER_TYPE) },
        { name: 'body', type: 'string' },
      ]),
      op('find-task-by-label', [{ name: 'label', type: 'string' }]),
      op('list-targets'),
    ],
  },
};

/** The versioned name of a capability's export interface, e.g. `findsvc:plugin/finding-enricher@0.1.0`. */
export function exportInterfaceName(
  capability: PluginCapability,
  version: string = WIT_VERSION,
): string | undefined {
  const entry = CAPABILITY_EXPORTS[capability];
  return entry ? `${WIT_PACKAGE}/${entry.interface}@${version}` : undefined;
}

/** Where a value first breaks its WIT type (`undefined` when it fits). */
export function witTypeMismatch(type: WitType, value: unknown, path = 'value'): string | undefined {
  if (type === 'string') return typeof value === 'string' ? undefined : `${path} must be a string`;
  if (type === 'bool') return typeof value === 'boolean' ? undefined : `${path} must be a boolean`;
  if (type === 'u16' || type === 'u32') {
    const max = type === 'u16' ? 0xffff : 0xffffffff;
    return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max
      ? undefined
      : `${path} must be an integer from 0 to ${max}`;
  }
  if ('option' in type) {
    return value === null || value === undefined
      ? undefined
      : witTypeMismatch(type.option, value, path);
  }
  if ('list' in type) {
    if (!Array.isArray(value)) return `${path} must be a list`;
    for (let i = 0; i < value.length; i++) {
      const problem = witTypeMismatch(type.list, value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if ('enum' in type) {
    return typeof value === 'string' && type.enum.includes(value)
      ? undefined
      : `${path} must be one of ${type.enum.join(', ')}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${path} must be an object`;
  }
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!(key in type.record)) return `${path}.${key} is not a field`;
  }
  for (const [field, fieldType] of Object.entries(type.record)) {
    const problem = witTypeMismatch(fieldType, fields[field], `${path}.${field}`);
    if (problem) return problem;
  }
  return undefined;
}
