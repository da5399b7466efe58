import { JsonRecord } from './json-value';
import { BaselineState, BASELINE_STATES, RESULT_KINDS, ResultKind } from './normalized-finding';
import {
  absent,
  isObject,
  optionalArray,
  optionalIndex,
  optionalLine,
  optionalObject,
  optionalString,
} from './json-shape';
import { IgnoredMask, IgnoredValueCode, ResultWarningCode } from './result-warnings';

/** SARIF 2.1.0 `result.level` (§3.27.10). */
export const SARIF_LEVELS = ['none', 'note', 'warning', 'error'] as const;

/** Members of a SARIF 2.1.0 `result` (§3.27); others are counted as `result_member_unknown`. */
const RESULT_MEMBERS: ReadonlySet<string> = new Set([
  'guid',
  'correlationGuid',
  'ruleId',
  'ruleIndex',
  'rule',
  'taxa',
  'kind',
  'level',
  'message',
  'analysisTarget',
  'webRequest',
  'webResponse',
  'locations',
  'fingerprints',
  'partialFingerprints',
  'codeFlows',
  'graphs',
  'graphTraversals',
  'stacks',
  'relatedLocations',
  'suppressions',
  'baselineState',
  'rank',
  'attachments',
  'workItemUris',
  'hostedViewerUri',
  'provenance',
  'fixes',
  'occurrenceCount',
  'properties',
]);

/**
 * An enum as written: the exact SARIF values, and the other spellings read as one of them
 * (another letter case, surrounding spaces, values of SARIF's pre-2.1.0 drafts).
 */
class SarifEnum<T extends string> {
  private readonly exact: ReadonlySet<string>;
  private readonly loose: ReadonlyMap<string, T>;

  constructor(values: readonly T[], drafts: Record<string, T> = {}) {
    this.exact = new Set(values);
    this.loose = new Map<string, T>([
      ...values.map((v): [string, T] => [v.toLowerCase(), v]),
      ...Object.entries(drafts),
    ]);
  }

  /** The SARIF value `value` stands for, if any. */
  read(value: unknown): T | undefined {
    if (typeof value !== 'string') return undefined;
    if (this.exact.has(value)) return value as T;
    return this.loose.get(value.trim().toLowerCase());
  }

  /** Notes a value that is not exact: `mapped` when it stands for one, else `ignored`. */
  check(
    value: unknown,
    mask: IgnoredMask,
    mapped: IgnoredValueCode,
    ignored: IgnoredValueCode,
  ): void {
    if (absent(value) || (typeof value === 'string' && this.exact.has(value))) return;
    mask.note(this.read(value) === undefined ? ignored : mapped);
  }
}

const LEVEL = new SarifEnum(SARIF_LEVELS);
const KIND = new SarifEnum(RESULT_KINDS);
/** `existing` is the pre-2.1.0 drafts' name of `unchanged` (the SARIF spec's appendix K sample). */
const BASELINE = new SarifEnum(BASELINE_STATES, { existing: 'unchanged' });

/** `result.kind` as SARIF 2.1.0 names it (default `fail` is the caller's). */
export function sarifKind(value: unknown): ResultKind | undefined {
  return KIND.read(value);
}

/** `result.baselineState` as SARIF 2.1.0 names it (`existing` → `unchanged`). */
export function sarifBaselineState(value: unknown): BaselineState | undefined {
  return BASELINE.read(value);
}

/** A region's lines must be readable (they are the identity); columns are not read. */
function regionProblem(region: unknown, mask: IgnoredMask): ResultWarningCode | undefined {
  if (absent(region)) return undefined;
  if (!isObject(region)) return 'result_location_invalid';
  if (!optionalLine(region.startLine) || !optionalLine(region.endLine))
    return 'result_region_invalid';
  if (
    !optionalLine(region.startColumn) ||
    !optionalLine(region.endColumn) ||
    !optionalObject(region.snippet)
  ) {
    mask.note('result_location_detail_ignored');
  }
  return undefined;
}

/**
 * The first location (the only one read). What locates the finding — the physical location,
 * its artifact (a `uri`, else a valid `index`) and region lines; the logical locations when
 * there is no physical one — must be readable; the rest is ignored when malformed.
 */
function locationProblem(location: JsonRecord, mask: IgnoredMask): ResultWarningCode | undefined {
  const physical = location.physicalLocation;
  if (!optionalObject(physical)) return 'result_location_invalid';
  if (!optionalObject(location.properties)) mask.note('result_properties_ignored');
  if (!optionalArray(location.logicalLocations)) {
    if (!isObject(physical)) return 'result_location_invalid';
    mask.note('result_location_detail_ignored');
  }
  if (!isObject(physical)) return undefined;
  const artifact = physical.artifactLocation;
  if (!optionalObject(artifact)) return 'result_location_invalid';
  if (!optionalObject(physical.contextRegion)) mask.note('result_location_detail_ignored');
  if (isObject(artifact)) {
    if (!optionalString(artifact.uri)) return 'result_location_invalid';
    if (!optionalIndex(artifact.index)) {
      if (absent(artifact.uri)) return 'result_location_invalid';
      mask.note('result_location_detail_ignored');
    }
    if (!optionalString(artifact.uriBaseId)) mask.note('result_location_detail_ignored');
  }
  return regionProblem(physical.region, mask);
}

/**
 * Why a SARIF 2.1.0 `result` cannot be stored, if it cannot, noting in `mask` the values that
 * are ignored (or read as their equivalent) instead. Skipped: a result that is not an object,
 * or whose location is unreadable (see locationProblem; network ports and protocols are
 * checked where they are read, see resolveLocation). The rule members are noted here and
 * decided by the caller (`result_rule_invalid` only when no rule id can be found through the
 * others). Everything else is optional information: an unknown enum value, a member of the
 * wrong type, a member SARIF does not define are noted and the finding is stored without them.
 * A few property checks per result; no schema engine (the parser thread's budget is a few
 * microseconds per result).
 */
export function sarifResultProblem(
  value: unknown,
  mask: IgnoredMask,
): ResultWarningCode | undefined {
  if (!isObject(value)) return 'result_not_object';
  for (const key in value) {
    if (!RESULT_MEMBERS.has(key)) {
      mask.note('result_member_unknown');
      break;
    }
  }
  LEVEL.check(value.level, mask, 'result_level_mapped', 'result_level_ignored');
  KIND.check(value.kind, mask, 'result_kind_mapped', 'result_kind_ignored');
  BASELINE.check(
    value.baselineState,
    mask,
    'result_baseline_state_mapped',
    'result_baseline_state_ignored',
  );
  if (
    !optionalString(value.ruleId) ||
    !optionalIndex(value.ruleIndex) ||
    !optionalObject(value.rule)
  ) {
    mask.note('result_rule_ignored');
  }
  if (typeof value.message === 'string') mask.note('result_message_mapped');
  else if (!optionalObject(value.message)) mask.note('result_message_ignored');
  if (!optionalObject(value.properties)) mask.note('result_properties_ignored');
  if (!optionalObject(value.fingerprints) || !optionalObject(value.partialFingerprints))
    mask.note('result_fingerprints_ignored');
  if (!optionalArray(value.suppressions) || !optionalArray(value.taxa))
    mask.note('result_member_ignored');
  if (!optionalObject(value.webRequest)) mask.note('result_location_detail_ignored');
  const locations = value.locations;
  if (!optionalArray(locations)) return 'result_location_invalid';
  const first = Array.isArray(locations) ? (locations[0] as unknown) : undefined;
  if (!absent(first) && !isObject(first)) return 'result_location_invalid';
  return isObject(first) ? locationProblem(first, mask) : undefined;
}
