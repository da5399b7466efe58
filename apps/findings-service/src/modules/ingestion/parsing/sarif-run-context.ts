import { asArray, asNumber, asRecord, asString, JsonRecord } from './json-value';
import { UploadDefaults } from './normalized-finding';
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
}

export interface SarifToolComponent {
  name?: string;
  guid?: string;
  byIndex: SarifRule[];
  byId: Map<string, SarifRule>;
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
}

function text(message: unknown): string | undefined {
  const record = asRecord(message);
  return asString(record?.text) ?? asString(record?.markdown);
}

function toRule(value: unknown): SarifRule {
  const rule = asRecord(value) ?? {};
  const messageStrings: Record<string, string> = {};
  for (const [key, entry] of Object.entries(asRecord(rule.messageStrings) ?? {})) {
    const s = text(entry);
    if (s !== undefined) messageStrings[key] = s;
  }
  return {
    id: asString(rule.id),
    name: asString(rule.name),
    shortDescription: text(rule.shortDescription),
    fullDescription: text(rule.fullDescription),
    level: asString(asRecord(rule.defaultConfiguration)?.level),
    properties: asRecord(rule.properties),
    messageStrings,
    cwe: cweFromRelationships(rule.relationships),
  };
}

function toComponent(value: unknown): SarifToolComponent {
  const component = asRecord(value) ?? {};
  const byIndex = asArray(component.rules).map(toRule);
  const byId = new Map<string, SarifRule>();
  for (const rule of byIndex)
    if (rule.id !== undefined && !byId.has(rule.id)) byId.set(rule.id, rule);
  return { name: asString(component.name), guid: asString(component.guid), byIndex, byId };
}

function firstRevision(provenance: unknown): string | undefined {
  for (const entry of asArray(provenance)) {
    const revision = asString(asRecord(entry)?.revisionId);
    if (revision !== undefined) return revision;
  }
  return undefined;
}

function toBaseUri(value: unknown): SarifBaseUri {
  const record = asRecord(value);
  return { uri: asString(record?.uri), uriBaseId: asString(record?.uriBaseId) };
}

/** `invocations[].ruleConfigurationOverrides[]`: a configured level replaces the default. */
function applyOverrides(invocations: unknown, ctx: SarifRunContext): void {
  for (const invocation of asArray(invocations)) {
    for (const override of asArray(asRecord(invocation)?.ruleConfigurationOverrides)) {
      const record = asRecord(override);
      const level = asString(asRecord(record?.configuration)?.level);
      const rule = level === undefined ? undefined : findRule(ctx, asRecord(record?.descriptor));
      if (rule && level !== undefined) rule.level = level;
    }
  }
}

/** Builds the context of run `runIndex` from its non-`results` members. */
export function buildRunContext(
  runIndex: number,
  members: JsonRecord,
  defaults: UploadDefaults,
): SarifRunContext {
  const tool = asRecord(members.tool);
  const driverRecord = asRecord(tool?.driver);
  const baseUris = new Map<string, SarifBaseUri>();
  for (const [key, value] of Object.entries(asRecord(members.originalUriBaseIds) ?? {})) {
    baseUris.set(key, toBaseUri(value));
  }
  const ctx: SarifRunContext = {
    runIndex,
    scanner:
      asString(driverRecord?.name) ??
      asString(driverRecord?.fullName) ??
      asString(defaults.engine) ??
      'unknown',
    scannerVersion:
      asString(driverRecord?.version) ??
      asString(driverRecord?.semanticVersion) ??
      asString(defaults.engine_version),
    revision: firstRevision(members.versionControlProvenance) ?? asString(defaults.commit_id),
    driver: toComponent(driverRecord),
    extensions: asArray(tool?.extensions).map(toComponent),
    baseUris,
    artifacts: asArray(members.artifacts).map((a) => toBaseUri(asRecord(a)?.location)),
    checkoutRoots: [...baseUris.values()]
      .map((base) => base.uri)
      .filter((uri): uri is string => uri !== undefined && /^file:/i.test(uri))
      .map(normalizeFindingPath)
      .filter((root) => root.length > 1),
    pathCache: new Map(),
  };
  applyOverrides(members.invocations, ctx);
  return ctx;
}

function componentMaterial(component: SarifToolComponent): unknown {
  return [component.name, component.guid, component.byIndex];
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
