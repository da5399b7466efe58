import {
  asNumber,
  asPositiveInt,
  asRecord,
  asString,
  asStringList,
  bounded,
  JsonRecord,
  unique,
} from './json-value';
import { findingIdentity } from './finding-identity';
import {
  boundedProperties,
  firstLine,
  MAX_DESCRIPTION,
  MAX_SCANNER,
  MAX_TITLE,
} from './finding-text';
import { normalizeFindingPath } from './finding-path';
import {
  FileLocation,
  NormalizedFinding,
  ResultKind,
  Severity,
  SeveritySource,
} from './normalized-finding';
import { IgnoredMask, ResultWarningCode } from './result-warnings';
import { asCve, cveInside, cweFromTags, ghsaInside } from './sarif-taxonomy';
import { sonarRecordProblem } from './sonarqube-issue-check';
import { componentPath, SonarContext, SonarRule } from './sonarqube-context';
import { SonarRecordKind } from './sonarqube-scan-handler';
import {
  sonarHotspotSeverity,
  sonarImpactSeverity,
  sonarLegacySeverity,
} from './sonarqube-severity';

const SUPPRESSING_RESOLUTIONS = new Set(['FALSE-POSITIVE', 'WONTFIX', 'SAFE']);
const SUPPRESSING_ISSUE_STATUSES = new Set(['FALSE_POSITIVE', 'ACCEPTED']);
const CLOSED_RESOLUTIONS = new Set(['FIXED', 'REMOVED']);
/** Hotspot statuses, also on hotspots listed as issues (SonarQube 7.8-8.1, sonar-report). */
const REVIEW_STATUSES = new Set(['TO_REVIEW', 'IN_REVIEW']);
const KEPT_PROPERTIES = [
  'key',
  'type',
  'status',
  'resolution',
  'issueStatus',
  'effort',
  'effortMinutes',
  'creationDate',
  'updateDate',
  'project',
  'cleanCodeAttribute',
  'securityCategory',
  'vulnerabilityProbability',
] as const;

interface Severe {
  severity: Severity;
  source: SeveritySource;
}

function fileLocation(path: string, range: JsonRecord | undefined, line: unknown): FileLocation {
  const start = asPositiveInt(range?.startLine) ?? asPositiveInt(line);
  const end = asPositiveInt(range?.endLine) ?? start;
  const location: FileLocation = { kind: 'file', path: normalizeFindingPath(path) };
  if (start !== undefined) location.start_line = start;
  if (end !== undefined) location.end_line = Math.max(end, start ?? end);
  return location;
}

function issueSeverity(issue: JsonRecord, rule: SonarRule | undefined): Severe {
  const own = sonarLegacySeverity(issue.severity) ?? sonarImpactSeverity(issue.impacts);
  if (own) return { severity: own, source: 'result_properties' };
  const fromRule = sonarLegacySeverity(rule?.severity) ?? sonarImpactSeverity(rule?.impacts);
  if (fromRule) return { severity: fromRule, source: 'rule_properties' };
  return { severity: 'INFO', source: 'default' };
}

function issueKind(issue: JsonRecord, hotspot: boolean): ResultKind {
  const status = asString(issue.status)?.toUpperCase();
  const resolution = asString(issue.resolution)?.toUpperCase();
  if (status === 'CLOSED' || (resolution && CLOSED_RESOLUTIONS.has(resolution))) return 'pass';
  if (asString(issue.issueStatus)?.toUpperCase() === 'FIXED') return 'pass';
  if (hotspot) return status === 'REVIEWED' && resolution === 'SAFE' ? 'pass' : 'review';
  if (status !== undefined && REVIEW_STATUSES.has(status)) return 'review';
  return asString(issue.type)?.toUpperCase() === 'SECURITY_HOTSPOT' ? 'review' : 'fail';
}

function isSuppressed(issue: JsonRecord): boolean {
  const resolution = asString(issue.resolution)?.toUpperCase();
  const issueStatus = asString(issue.issueStatus)?.toUpperCase();
  return (
    (resolution !== undefined && SUPPRESSING_RESOLUTIONS.has(resolution)) ||
    (issueStatus !== undefined && SUPPRESSING_ISSUE_STATUSES.has(issueStatus))
  );
}

function keptProperties(issue: JsonRecord): Record<string, unknown> {
  const subset: JsonRecord = {};
  for (const key of KEPT_PROPERTIES) if (issue[key] !== undefined) subset[key] = issue[key];
  return boundedProperties(subset);
}

interface Parts {
  ruleId: string;
  rule: SonarRule | undefined;
  /** The rule's name: `rules` by key, else the copy sonar-report writes as `description`. */
  ruleName: string | undefined;
  message: string | undefined;
  location: FileLocation;
  severity: Severe;
  tags: string[];
  scanner: string;
  hotspot: boolean;
}

function parts(kind: SonarRecordKind, issue: JsonRecord, ctx: SonarContext): Parts {
  const primary = asRecord(issue.primaryLocation);
  if (primary) {
    const ruleId = asString(issue.ruleId) ?? 'unknown';
    const rule = ctx.rules.get(ruleId);
    return {
      ruleId,
      rule,
      ruleName: rule?.name,
      message: asString(primary.message),
      location: fileLocation(
        asString(primary.filePath) ?? '',
        asRecord(primary.textRange),
        undefined,
      ),
      severity: issueSeverity(issue, rule),
      tags: [],
      scanner: bounded(asString(issue.engineId) ?? rule?.engineId ?? ctx.scanner, MAX_SCANNER),
      hotspot: false,
    };
  }
  const hotspot = kind === 'hotspots';
  const category = asString(issue.securityCategory);
  const ruleId =
    asString(issue.rule) ??
    asString(issue.ruleKey) ??
    asString(asRecord(issue.rule)?.key) ??
    (category === undefined ? 'unknown' : `hotspot:${category}`);
  const rule = ctx.rules.get(ruleId);
  const path = componentPath(ctx, asString(issue.component));
  const hotspotSeverity = sonarHotspotSeverity(issue.vulnerabilityProbability);
  const copiedName = asString(issue.description);
  return {
    ruleId,
    rule,
    ruleName: rule?.name ?? (copiedName === '/' ? undefined : copiedName),
    message: asString(issue.message),
    location: fileLocation(path, asRecord(issue.textRange), issue.line),
    severity:
      hotspot && hotspotSeverity
        ? { severity: hotspotSeverity, source: 'result_properties' }
        : issueSeverity(issue, rule),
    tags: unique([
      ...asStringList(issue.tags),
      ...(hotspot ? ['security-hotspot', ...(category ? [category] : [])] : []),
    ]),
    scanner: ctx.scanner,
    hotspot,
  };
}

/**
 * What tells apart issues of one rule and file that have no line (SonarQube reports one
 * dependency-check issue per CVE, all on the project or its build file): the CVE (tags, then
 * message, then rule key), else a GitHub advisory id in the message or tags, else the issue
 * key (stable across analyses of one project).
 */
function unlocatedDiscriminator(
  cve: string | undefined,
  p: Parts,
  issueKey: string | undefined,
): string | undefined {
  return cve ?? ghsaInside([p.message, ...p.tags]) ?? issueKey;
}

/**
 * Normalizes one element of `issues[]` (Web API or generic import) or `hotspots[]`, or says why
 * it cannot be stored (see sonarRecordProblem; the caller skips and counts it). `mask` receives
 * the values that were ignored (reset per record by the caller).
 */
export function normalizeSonarRecord(
  kind: SonarRecordKind,
  value: unknown,
  ctx: SonarContext,
  mask: IgnoredMask,
): NormalizedFinding | ResultWarningCode {
  const problem = sonarRecordProblem(value, kind === 'hotspots', mask);
  if (problem !== undefined) return problem;
  const issue = value as JsonRecord;
  const p = parts(kind, issue, ctx);
  const title = p.ruleName ?? (p.message && firstLine(p.message)) ?? p.ruleId;
  const issueKey = asString(issue.key);
  const lineHash = asString(issue.hash);
  const finding: NormalizedFinding = {
    rule_id: p.ruleId,
    title: bounded(title, MAX_TITLE),
    description: bounded(p.message ?? p.rule?.description ?? title, MAX_DESCRIPTION),
    severity: p.severity.severity,
    severity_source: p.severity.source,
    location: p.location,
    cwe: cweFromTags(p.tags),
    tags: p.tags,
    scanner: p.scanner,
    suppressed: isSuppressed(issue),
    kind: issueKind(issue, p.hotspot),
    fingerprints: {
      fingerprints: issueKey === undefined ? {} : { sonarIssueKey: issueKey },
      partial_fingerprints: lineHash === undefined ? {} : { sonarLineHash: lineHash },
    },
    properties: keptProperties(issue),
    identity: '',
  };
  if (p.ruleName !== undefined) finding.rule_name = p.ruleName;
  const shortTitle = p.ruleName === undefined ? undefined : firstLine(p.ruleName);
  if (shortTitle !== undefined) finding.rule_title = bounded(shortTitle, MAX_TITLE);
  const cve = p.tags.map(asCve).find((c) => c !== undefined) ?? cveInside([p.message, p.ruleId]);
  if (cve !== undefined) finding.cve = cve;
  if (p.location.start_line === undefined) {
    const discriminator = unlocatedDiscriminator(cve, p, issueKey);
    if (discriminator !== undefined) finding.discriminator = discriminator;
  }
  if (ctx.scannerVersion !== undefined) finding.scanner_version = ctx.scannerVersion;
  if (ctx.revision !== undefined) finding.revision = ctx.revision;
  const score = asNumber(issue.cvss);
  if (score !== undefined && score >= 0 && score <= 10) finding.score = score;
  finding.identity = findingIdentity(finding);
  return finding;
}
