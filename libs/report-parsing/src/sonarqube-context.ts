import { asNumber, asRecord, asString, bounded, JsonRecord } from './json-value';
import { normalizeFindingPath } from './finding-path';
import { CoverageCollector } from './run-coverage';
import { MAX_SCANNER } from './finding-text';
import { isObject, structuralObjects } from './json-shape';
import { structureInvalid } from './report-parse.errors';
import { RunCoverage, UploadDefaults } from './normalized-finding';

export const SONAR_DEFAULT_SCANNER = 'SonarQube';

/** A rule from `rules[]`: Web API (`key`, `name`) or generic import (`id`, `name`, ...). */
export interface SonarRule {
  name?: string;
  description?: string;
  engineId?: string;
  severity?: unknown;
  impacts?: unknown;
  type?: string;
}

export interface SonarContext {
  scanner: string;
  scannerVersion?: string;
  revision?: string;
  /** Component key → file path (`components[].path`, else the key after `project:`). */
  components: Map<string, string>;
  rules: Map<string, SonarRule>;
  /** The file components and whether the export holds every issue (sonarqube.md, Coverage). */
  coverage: RunCoverage;
}

/** Qualifiers of file components (source and test files). */
const FILE_QUALIFIERS = new Set(['FIL', 'UTS']);

/**
 * Coverage of a SonarQube export: the components that are files — qualifier FIL or UTS, or a
 * `path` and no qualifier — as their issues' paths are normalized; `incomplete` when the export
 * is one page of several (`paging.pageIndex` > 1, or `paging.total` / `total` above the records
 * the file holds).
 */
function sonarCoverage(
  top: JsonRecord,
  components: JsonRecord[],
  paths: Map<string, string>,
  records: number,
): RunCoverage {
  const coverage = new CoverageCollector();
  for (const component of components) {
    const qualifier = asString(component.qualifier)?.toUpperCase();
    const file =
      qualifier === undefined
        ? asString(component.path) !== undefined
        : FILE_QUALIFIERS.has(qualifier);
    const key = asString(component.key);
    if (!file || key === undefined) continue;
    coverage.file(normalizeFindingPath(pathOf(paths, key)));
  }
  const paging = asRecord(top.paging);
  const page = asNumber(paging?.pageIndex ?? top.p);
  const total = asNumber(paging?.total ?? top.total);
  if ((page !== undefined && page > 1) || (total !== undefined && total > records))
    coverage.markIncomplete();
  return coverage.result();
}

function toRule(rule: JsonRecord): SonarRule {
  return {
    name: asString(rule.name),
    description: asString(rule.description) ?? asString(rule.htmlDesc),
    engineId: asString(rule.engineId),
    severity: rule.severity,
    impacts: rule.impacts,
    type: asString(rule.type),
  };
}

/**
 * `rules`: an array of rules (Web API `additionalFields=rules`: `key`; generic import: `id`), or
 * an object keyed by rule key (sonar-report's export: `{ "<key>": { name, htmlDesc, severity } }`).
 * Anything else, or an element that is not an object, fails the report.
 */
function rulesOf(value: unknown): Map<string, SonarRule> {
  const rules = new Map<string, SonarRule>();
  if (isObject(value)) {
    for (const [key, rule] of Object.entries(value)) {
      if (!isObject(rule)) throw structureInvalid('rules', 'an object of rule objects');
      if (asString(key) !== undefined) rules.set(key.trim(), toRule(rule));
    }
    return rules;
  }
  for (const rule of structuralObjects(value, 'rules')) {
    const key = asString(rule.key) ?? asString(rule.id);
    if (key !== undefined) rules.set(key, toRule(rule));
  }
  return rules;
}

/**
 * Builds the context from the non-record top-level members (pass 1); `components` that are
 * not an array of objects, or `rules` that are neither an array of objects nor an object of
 * objects, fail the report (`report_structure_invalid`).
 */
export function buildSonarContext(
  top: JsonRecord,
  defaults: UploadDefaults,
  records: number,
): SonarContext {
  const components = new Map<string, string>();
  const listed = structuralObjects(top.components, 'components');
  for (const component of listed) {
    const key = asString(component.key);
    const path = asString(component.path);
    if (key !== undefined && path !== undefined) components.set(key, path);
  }
  return {
    scanner: bounded(asString(defaults.engine) ?? SONAR_DEFAULT_SCANNER, MAX_SCANNER),
    scannerVersion: asString(defaults.engine_version),
    revision: asString(defaults.commit_id),
    components,
    rules: rulesOf(top.rules),
    coverage: sonarCoverage(top, listed, components, records),
  };
}

function pathOf(components: Map<string, string>, key: string): string {
  const known = components.get(key);
  if (known !== undefined) return known;
  const colon = key.indexOf(':');
  return colon >= 0 ? key.slice(colon + 1) : key;
}

/** File path of a component key. */
export function componentPath(ctx: SonarContext, key: string | undefined): string {
  return key === undefined ? '' : pathOf(ctx.components, key);
}
