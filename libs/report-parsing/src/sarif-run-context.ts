import { asNumber, asRecord, asString, bounded, JsonRecord } from './json-value';
import { MAX_SCANNER } from './finding-text';
import { structuralObject, structuralObjects } from './json-shape';
import { structureInvalid } from './report-parse.errors';
import { RunCoverage, UploadDefaults } from './normalized-finding';
import { cweFromRelationships } from './sarif-taxonomy';
import { normalizeFindingPath } from './finding-path';

/** The parts of a `reportingDescriptor` (rule) that normalization needs. */
export interface SarifRule {
  id?: string;
  name?: string;
  shortDescription?: string;
  fullDescription?: string;
  /** `defaultConfiguration.level`, possibly overridden by an invocation. */
  level?: string;
  properties?: JsonRecord;
  messageStrings: Record<string, string>;
  cwe: string[];
  /** The tool component that holds the rule: -1 the driver, else the extension's index. */
  component: number;
}

export interface SarifToolComponent {
  name?: string;
  guid?: string;
  byIndex: SarifRule[];
  byId: Map<string, SarifRule>;
  /** `globalMessageStrings` (§3.19.22): id → text (else markdown). */
  globalMessageStrings: Record<string, string>;
}

export interface SarifBaseUri {
  uri?: string;
  uriBaseId?: string;
}

/** Everything a result of one run is normalized against; built from the run's members. */
export interface SarifRunContext {
  runIndex: number;
  scanner: string;
  scannerVersion?: string;
  revision?: string;
  driver: SarifToolComponent;
  extensions: SarifToolComponent[];
  baseUris: Map<string, SarifBaseUri>;
  /** `artifacts[i].location` for `artifactLocation.index` references. */
  artifacts: SarifBaseUri[];
  /** Normalized absolute `file:` base URIs (checkout roots) used to relativize paths. */
  checkoutRoots: string[];
  /** Artifact URI → normalized path, filled while normalizing. */
  pathCache: Map<string, string>;
  /** What the run lists as looked at (sarif-coverage.ts; not read by normalization). */
  coverage: RunCoverage;
}

function text(message: unknown): string | undefined {
  const record = asRecord(message);
  return asString(record?.text) ?? asString(record?.markdown);
}

/** A `messageStrings` / `globalMessageStrings` object: id → text (else markdown). */
function messageStringsOf(value: unknown): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const [key, entry] of Object.entries(asRecord(value) ?? {})) {
    const s = text(entry);
    if (s !== undefined) strings[key] = s;
  }
  return strings;
}

function toRule(value: unknown, component: number): SarifRule {
  const rule = asRecord(value) ?? {};
  return {
    id: asString(rule.id),
    name: asString(rule.name),
    shortDescription: text(rule.shortDescription),
    fullDescription: text(rule.fullDescription),
    level: asString(asRecord(rule.defaultConfiguration)?.level),
    properties: asRecord(rule.properties),
    messageStrings: messageStringsOf(rule.messageStrings),
    cwe: cweFromRelationships(rule.relationships),
    component,
  };
}

/** `index`: -1 for the driver, else the extension's index. */
function toComponent(
  component: JsonRecord | undefined,
  path: string,
  index: number,
): SarifToolComponent {
  if (!component) return { byIndex: [], byId: new Map(), globalMessageStrings: {} };
  const byIndex = structuralObjects(component.rules, `${path}.rules`).map((rule) =>
    toRule(rule, index),
  );
  const byId = new Map<string, SarifRule>();
  for (const rule of byIndex)
    if (rule.id !== undefined && !byId.has(rule.id)) byId.set(rule.id, rule);
  return {
    name: asString(component.name),
    guid: asString(component.guid),
    byIndex,
    byId,
    globalMessageStrings: messageStringsOf(component.globalMessageStrings),
  };
}

function firstRevision(provenance: unknown, path: string): string | undefined {
  for (const entry of structuralObjects(provenance, path)) {
    const revision = asString(entry.revisionId);
    if (revision !== undefined) return revision;
  }
  return undefined;
}

function toBaseUri(value: unknown): SarifBaseUri {
  const record = asRecord(value);
  return { uri: asString(record?.uri), uriBaseId: asString(record?.uriBaseId) };
}

/** `invocations[].ruleConfigurationOverrides[]`: a configured level replaces the default. */
function applyOverrides(invocations: unknown, ctx: SarifRunContext, path: string): void {
  structuralObjects(invocations, path).forEach((invocation, i) => {
    const overrides = `${path}[${i}].ruleConfigurationOverrides`;
    for (const record of structuralObjects(invocation.ruleConfigurationOverrides, overrides)) {
      const level = asString(asRecord(record.configuration)?.level);
      const rule = level === undefined ? undefined : findRule(ctx, asRecord(record.descriptor));
      if (rule && level !== undefined) rule.level = level;
    }
  });
}

/** `originalUriBaseIds`: an object whose values are artifact locations. */
function baseUrisOf(value: unknown, path: string): Map<string, SarifBaseUri> {
  const baseUris = new Map<string, SarifBaseUri>();
  for (const [key, entry] of Object.entries(structuralObject(value, path) ?? {})) {
    const location = asRecord(entry);
    if (!location && entry !== null) throw structureInvalid(path, 'an object of locations');
    baseUris.set(key, toBaseUri(location));
  }
  return baseUris;
}

/**
 * Builds the context of run `runIndex` from its non-`results` members. A member it reads that
 * has the wrong JSON type (`tool` not an object, `rules` not an array of objects, ...) fails the
 * report as `report_structure_invalid`.
 */
export function buildRunContext(
  runIndex: number,
  members: JsonRecord,
  defaults: UploadDefaults,
): SarifRunContext {
  const at = `runs[${runIndex}]`;
  const tool = structuralObject(members.tool, `${at}.tool`);
  const driverRecord = structuralObject(tool?.driver, `${at}.tool.driver`);
  const baseUris = baseUrisOf(members.originalUriBaseIds, `${at}.originalUriBaseIds`);
  const ctx: SarifRunContext = {
    runIndex,
    scanner: bounded(
      asString(driverRecord?.name) ??
        asString(driverRecord?.fullName) ??
        asString(defaults.engine) ??
        'unknown',
      MAX_SCANNER,
    ),
    scannerVersion:
      asString(driverRecord?.version) ??
      asString(driverRecord?.semanticVersion) ??
      asString(defaults.engine_version),
    revision:
      firstRevision(members.versionControlProvenance, `${at}.versionControlProvenance`) ??
      asString(defaults.commit_id),
    driver: toComponent(driverRecord, `${at}.tool.driver`, -1),
    extensions: structuralObjects(tool?.extensions, `${at}.tool.extensions`).map((e, i) =>
      toComponent(e, `${at}.tool.extensions[${i}]`, i),
    ),
    baseUris,
    artifacts: structuralObjects(members.artifacts, `${at}.artifacts`).map((a) =>
      toBaseUri(asRecord(a.location)),
    ),
    checkoutRoots: [...baseUris.values()]
      .map((base) => base.uri)
      .filter((uri): uri is string => uri !== undefined && /^file:/i.test(uri))
      .map(normalizeFindingPath)
      .filter((root) => root.length > 1),
    pathCache: new Map(),
    coverage: { incomplete: false, files: [], failedFiles: [], hosts: [] },
  };
  applyOverrides(members.invocations, ctx, `${at}.invocations`);
  return ctx;
}

function componentMaterial(component: SarifToolComponent): unknown {
  return [component.name, component.guid, component.byIndex, component.globalMessageStrings];
}

/**
 * What normalization reads from the run besides a result, for the run's digest seed
 * (result-digest.ts): everything but the run index, scanner version and revision (stored from
 * the batch) and the path cache.
 */
export function runContextMaterial(ctx: SarifRunContext): unknown {
  return [
    ctx.scanner,
    componentMaterial(ctx.driver),
    ctx.extensions.map(componentMaterial),
    [...ctx.baseUris.entries()],
    ctx.artifacts,
    ctx.checkoutRoots,
  ];
}

/**
 * The text of message string `id` (§3.11.7, a result's message): the rule's `messageStrings`,
 * then the `globalMessageStrings` of the tool component that holds the rule, then the driver's.
 */
export function messageString(
  ctx: SarifRunContext,
  rule: SarifRule | undefined,
  id: string,
): string | undefined {
  if (rule && Object.hasOwn(rule.messageStrings, id)) return rule.messageStrings[id];
  const holder = rule && rule.component >= 0 ? ctx.extensions[rule.component] : undefined;
  if (holder && Object.hasOwn(holder.globalMessageStrings, id))
    return holder.globalMessageStrings[id];
  const driver = ctx.driver.globalMessageStrings;
  return Object.hasOwn(driver, id) ? driver[id] : undefined;
}

function componentOf(ctx: SarifRunContext, ref: JsonRecord | undefined): SarifToolComponent {
  if (!ref) return ctx.driver;
  const index = asNumber(ref.index);
  if (index !== undefined && ctx.extensions[index]) return ctx.extensions[index];
  const name = asString(ref.name);
  const guid = asString(ref.guid);
  const all = [ctx.driver, ...ctx.extensions];
  return all.find((c) => (guid && c.guid === guid) || (name && c.name === name)) ?? ctx.driver;
}

/**
 * Resolves a rule reference (`reportingDescriptorReference` plus the result's `ruleId` /
 * `ruleIndex`): index within the referenced component first, then id in that component, then
 * id in any component, then the hierarchical parent id (`a/b` → `a`).
 */
export function findRule(
  ctx: SarifRunContext,
  ref: JsonRecord | undefined,
  ruleId?: string,
  ruleIndex?: number,
): SarifRule | undefined {
  const component = componentOf(ctx, asRecord(ref?.toolComponent));
  const index = ruleIndex ?? asNumber(ref?.index);
  if (index !== undefined && index >= 0 && component.byIndex[index])
    return component.byIndex[index];
  const id = ruleId ?? asString(ref?.id);
  if (id === undefined) return undefined;
  const direct = component.byId.get(id);
  if (direct) return direct;
  for (const other of [ctx.driver, ...ctx.extensions]) {
    const hit = other.byId.get(id);
    if (hit) return hit;
  }
  const slash = id.indexOf('/');
  return slash > 0 ? findRule(ctx, ref, id.slice(0, slash)) : undefined;
}
