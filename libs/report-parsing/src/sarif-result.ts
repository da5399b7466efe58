import {
  asArray,
  asNumber,
  asRecord,
  asString,
  asStringList,
  asStringMap,
  bounded,
  JsonRecord,
  pick,
  unique,
} from './json-value';
import { findingIdentity } from './finding-identity';
import { NormalizedFinding, Severity, SeveritySource } from './normalized-finding';
import { IgnoredMask, ResultWarningCode } from './result-warnings';
import { sarifBaselineState, sarifKind, sarifResultProblem } from './sarif-result-check';
import { findRule, SarifRule, SarifRunContext } from './sarif-run-context';
import { messageText } from './sarif-message';
import { sarifCodeFlows, sarifRelatedLocations } from './sarif-flows';
import { resolveLocation } from './sarif-location';
import { LEVEL_SEVERITY, severityFromLevel, severityFromScore, severityFromWord } from './severity';
import { asCve, cweFromProperty, cweFromRelationships, cweFromTags } from './sarif-taxonomy';
import { boundedProperties, firstLine, MAX_DESCRIPTION, MAX_TITLE } from './finding-text';

/** Property aliases read for the affected component (result properties, then rule). */
export const COMPONENT_KEYS = ['component', 'package', 'packageName', 'package_name'] as const;
export const COMPONENT_VERSION_KEYS = [
  'component_version',
  'componentVersion',
  'packageVersion',
  'package_version',
  'installedVersion',
] as const;
const SCORE_KEYS = ['security-severity', 'cvss', 'cvssScore', 'cvss_score'] as const;

/** Explicit severity of one property bag: the `severity` word, else `security-severity`. */
function explicitSeverity(properties: JsonRecord | undefined): Severity | undefined {
  if (!properties) return undefined;
  return (
    severityFromWord(properties.severity) ??
    severityFromScore(asNumber(properties['security-severity']))
  );
}

/**
 * Severity precedence (spec): explicit severity of the result properties, then of the rule
 * properties; then the result's level — read as SARIF's **effective** level (SARIF 2.1.0
 * §3.27.10): the result `level` when it has one; else, for a result whose `kind` is `fail` (or
 * absent: `fail` is the default), the rule's `defaultConfiguration.level` (after invocation
 * overrides), else `warning`; for a result of any other kind, `none`. The spec's last step
 * (`INFO`) is what `none` maps to.
 */
export function sarifSeverity(
  result: JsonRecord,
  rule: SarifRule | undefined,
): { severity: Severity; source: SeveritySource } {
  const fromResult = explicitSeverity(asRecord(result.properties));
  if (fromResult) return { severity: fromResult, source: 'result_properties' };
  const fromRule = explicitSeverity(rule?.properties);
  if (fromRule) return { severity: fromRule, source: 'rule_properties' };
  const fromLevel = severityFromLevel(result.level);
  if (fromLevel) return { severity: fromLevel, source: 'result_level' };
  if ((sarifKind(result.kind) ?? 'fail') !== 'fail') {
    return { severity: LEVEL_SEVERITY.none, source: 'kind_not_fail' };
  }
  const fromRuleLevel = severityFromLevel(rule?.level);
  if (fromRuleLevel) return { severity: fromRuleLevel, source: 'rule_level' };
  return { severity: LEVEL_SEVERITY.warning, source: 'level_default' };
}

/**
 * The rule's short title for lists (never the result's message): its short description's first
 * line, else its name; undefined when the report describes the rule by neither.
 */
export function ruleTitle(rule: SarifRule | undefined): string | undefined {
  const text = (rule?.shortDescription && firstLine(rule.shortDescription)) || rule?.name?.trim();
  return text ? bounded(text, MAX_TITLE) : undefined;
}

function scoreOf(...bags: (JsonRecord | undefined)[]): number | undefined {
  for (const bag of bags) {
    const score = asNumber(pick(bag, SCORE_KEYS));
    if (score !== undefined && score >= 0 && score <= 10) return score;
  }
  return undefined;
}

function isSuppressed(suppressions: unknown): boolean {
  const list = asArray(suppressions);
  return list.length > 0 && list.some((s) => asString(asRecord(s)?.status) !== 'rejected');
}

/** An integer `ruleIndex` (a malformed one is ignored, see sarifResultProblem). */
function ruleIndexOf(value: unknown): number | undefined {
  return Number.isInteger(value) ? (value as number) : undefined;
}

/**
 * Normalizes one SARIF `result` of the run described by `ctx`, or says why it cannot be
 * stored (see sarifResultProblem; the caller skips and counts it). `mask` receives the values
 * that were ignored or read as their equivalent (the caller resets it per result and counts it
 * only for a stored finding).
 */
export function normalizeSarifResult(
  value: unknown,
  ctx: SarifRunContext,
  mask: IgnoredMask,
): NormalizedFinding | ResultWarningCode {
  const problem = sarifResultProblem(value, mask);
  if (problem !== undefined) return problem;
  const result = value as JsonRecord;
  const ref = asRecord(result.rule);
  const ruleId = asString(result.ruleId) ?? asString(ref?.id);
  const rule = findRule(ctx, ref, ruleId, ruleIndexOf(result.ruleIndex));
  // A rule member of the wrong type is ignored when the others still name the rule; when none
  // does, the finding would get the rule `unknown` (another identity): skipped.
  if (ruleId === undefined && rule?.id === undefined && mask.has('result_rule_ignored'))
    return 'result_rule_invalid';
  const ruleKey = ruleId ?? rule?.id ?? 'unknown';
  const resultProps = asRecord(result.properties);
  const ruleProps = rule?.properties;
  const message = messageText(result.message, rule, ctx);
  const { severity, source } = sarifSeverity(result, rule);
  const resolved = resolveLocation(result, ctx);
  if (typeof resolved === 'string') return resolved;
  const { location, logical } = resolved;
  const tags = unique([...asStringList(ruleProps?.tags), ...asStringList(resultProps?.tags)]);
  const cwe = unique([
    ...cweFromProperty(resultProps?.cwe),
    ...cweFromProperty(ruleProps?.cwe),
    ...cweFromTags(tags),
    ...(rule?.cwe ?? []),
    ...cweFromRelationships(result.taxa),
  ]);
  const cve =
    asCve(pick(resultProps, ['cve', 'cveId', 'cve_id'])) ??
    asCve(pick(ruleProps, ['cve', 'cveId', 'cve_id'])) ??
    tags.map(asCve).find((c) => c !== undefined) ??
    asCve(ruleKey);
  const component = asString(pick(resultProps, COMPONENT_KEYS) ?? pick(ruleProps, COMPONENT_KEYS));
  const componentVersion = asString(
    pick(resultProps, COMPONENT_VERSION_KEYS) ?? pick(ruleProps, COMPONENT_VERSION_KEYS),
  );
  const score = scoreOf(resultProps, ruleProps);
  const baseline = sarifBaselineState(result.baselineState);
  const title = rule?.shortDescription ?? (message && firstLine(message)) ?? rule?.name ?? ruleKey;
  const description = message ?? rule?.fullDescription ?? rule?.shortDescription ?? title;
  const finding: NormalizedFinding = {
    rule_id: ruleKey,
    title: bounded(title, MAX_TITLE),
    description: bounded(description, MAX_DESCRIPTION),
    severity,
    severity_source: source,
    location,
    cwe,
    tags,
    scanner: ctx.scanner,
    suppressed: isSuppressed(result.suppressions),
    kind: sarifKind(result.kind) ?? 'fail',
    fingerprints: {
      fingerprints: asStringMap(result.fingerprints),
      partial_fingerprints: asStringMap(result.partialFingerprints),
    },
    properties: boundedProperties(resultProps),
    identity: '',
  };
  // Optional fields are only set when present (no `undefined` keys in stored JSON).
  if (rule?.name !== undefined) finding.rule_name = rule.name;
  const shortTitle = ruleTitle(rule);
  if (shortTitle !== undefined) finding.rule_title = shortTitle;
  if (logical !== undefined) finding.logical_location = logical;
  if (cve !== undefined) finding.cve = cve;
  if (component !== undefined) finding.component = component;
  if (componentVersion !== undefined) finding.component_version = componentVersion;
  if (ctx.scannerVersion !== undefined) finding.scanner_version = ctx.scannerVersion;
  if (ctx.revision !== undefined) finding.revision = ctx.revision;
  if (baseline !== undefined) finding.baseline_state = baseline;
  if (score !== undefined) finding.score = score;
  const related = sarifRelatedLocations(result.relatedLocations, rule, ctx);
  if (related.length > 0) finding.related_locations = related;
  const flows = sarifCodeFlows(result.codeFlows, rule, ctx);
  if (flows.length > 0) finding.code_flows = flows;
  finding.identity = findingIdentity(finding);
  return finding;
}
