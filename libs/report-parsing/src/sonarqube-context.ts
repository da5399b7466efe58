import { bounded, asString, JsonRecord } from './json-value';
import { MAX_SCANNER } from './finding-text';
import { isObject, structuralObjects } from './json-shape';
import { structureInvalid } from './report-parse.errors';
import { UploadDefaults } from './normalized-finding';

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
export function buildSonarContext(top: JsonRecord, defaults: UploadDefaults): SonarContext {
  const components = new Map<string, string>();
  for (const component of structuralObjects(top.components, 'components')) {
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
  };
}

/** File path of a component key. */
export function componentPath(ctx: SonarContext, key: string | undefined): string {
  if (key === undefined) return '';
  const known = ctx.components.get(key);
  if (known !== undefined) return known;
  const colon = key.indexOf(':');
  return colon >= 0 ? key.slice(colon + 1) : key;
}
