import {
  absent,
  isObject,
  optionalArray,
  optionalLine,
  optionalObject,
  optionalString,
} from './json-shape';
import { asRecord, asString, JsonRecord } from './json-value';
import { IgnoredMask, ResultWarningCode } from './result-warnings';
import {
  SONAR_HOTSPOT_SEVERITY,
  SONAR_IMPACT_SEVERITY,
  SONAR_LEGACY_SEVERITY,
} from './sonarqube-severity';
import type { Severity } from './normalized-finding';

/** Members read for kind, suppression, tags and fingerprints: strings (tags: a list). */
const TEXT_MEMBERS = ['key', 'status', 'resolution', 'issueStatus', 'type'] as const;

function rangeProblem(range: unknown): ResultWarningCode | undefined {
  if (!optionalObject(range)) return 'result_location_invalid';
  if (!isObject(range)) return undefined;
  return optionalLine(range.startLine) && optionalLine(range.endLine)
    ? undefined
    : 'result_region_invalid';
}

/** A severity word of `table`; an empty string counts as absent (sonar-report writes it). */
function unknownWord(table: Readonly<Record<string, Severity>>, value: unknown): boolean {
  if (absent(value) || (typeof value === 'string' && value.trim() === '')) return false;
  const word = asString(value)?.toUpperCase();
  return word === undefined || table[word] === undefined;
}

function impactsUnknown(impacts: unknown): boolean {
  if (absent(impacts)) return false;
  if (!Array.isArray(impacts)) return true;
  for (const impact of impacts as unknown[]) {
    if (unknownWord(SONAR_IMPACT_SEVERITY, asRecord(impact)?.severity)) return true;
  }
  return false;
}

function textMembersOdd(issue: JsonRecord): boolean {
  for (const key of TEXT_MEMBERS) if (!optionalString(issue[key])) return true;
  return false;
}

/** The optional members: noted when they cannot be read, never a skipped issue. */
function noteIgnored(issue: JsonRecord, hotspot: boolean, mask: IgnoredMask): void {
  if (
    unknownWord(SONAR_LEGACY_SEVERITY, issue.severity) ||
    impactsUnknown(issue.impacts) ||
    (hotspot && unknownWord(SONAR_HOTSPOT_SEVERITY, issue.vulnerabilityProbability))
  ) {
    mask.note('result_severity_ignored');
  }
  const tags = issue.tags;
  if (textMembersOdd(issue) || !(optionalArray(tags) || typeof tags === 'string')) {
    mask.note('result_member_ignored');
  }
}

/**
 * A rule member of the wrong type: ignored when another names the rule (Web API `rule`,
 * `ruleKey`, `rule.key`, a hotspot's category), else the issue is skipped (it would get the
 * rule `unknown`, another identity).
 */
function ruleProblem(issue: JsonRecord, mask: IgnoredMask): ResultWarningCode | undefined {
  const rule = issue.rule;
  if (
    (optionalString(rule) || isObject(rule)) &&
    optionalString(issue.ruleKey) &&
    optionalString(issue.ruleId)
  ) {
    return undefined;
  }
  const named =
    asString(rule) ??
    asString(asRecord(rule)?.key) ??
    asString(issue.ruleKey) ??
    asString(issue.ruleId) ??
    asString(issue.securityCategory);
  if (named === undefined) return 'result_rule_invalid';
  mask.note('result_rule_ignored');
  return undefined;
}

function genericProblem(primary: JsonRecord, mask: IgnoredMask): ResultWarningCode | undefined {
  if (!optionalString(primary.filePath)) return 'result_location_invalid';
  if (!optionalString(primary.message)) mask.note('result_message_ignored');
  return rangeProblem(primary.textRange);
}

/**
 * Why an element of `issues[]` / `hotspots[]` cannot be stored, if it cannot: only what
 * locates it (a file path or component key of the wrong type, a text range that is not an
 * object, line numbers that are not positive integers fitting `integer` columns) or a rule
 * that no member names (see ruleProblem). A message,
 * severity, status or tags of the wrong type or an unknown severity word are noted in `mask`
 * and the issue is stored without them.
 */
export function sonarRecordProblem(
  value: unknown,
  hotspot: boolean,
  mask: IgnoredMask,
): ResultWarningCode | undefined {
  if (!isObject(value)) return 'result_not_object';
  if (!optionalObject(value.primaryLocation)) return 'result_location_invalid';
  noteIgnored(value, hotspot, mask);
  const rule = ruleProblem(value, mask);
  if (rule !== undefined) return rule;
  if (isObject(value.primaryLocation)) return genericProblem(value.primaryLocation, mask);
  if (!optionalString(value.component)) return 'result_location_invalid';
  if (!optionalString(value.message)) mask.note('result_message_ignored');
  if (!optionalLine(value.line)) return 'result_region_invalid';
  return rangeProblem(value.textRange);
}
