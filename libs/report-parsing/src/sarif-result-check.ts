import { JsonRecord } from './json-value';
import { BASELINE_STATES, RESULT_KINDS } from './normalized-finding';
import {
  absent,
  isObject,
  optionalArray,
  optionalIndex,
  optionalLine,
  optionalObject,
  optionalString,
} from './json-shape';
import { ResultWarningCode } from './result-warnings';

/** SARIF 2.1.0 `result.level` (§3.27.10). */
export const SARIF_LEVELS = ['none', 'note', 'warning', 'error'] as const;

const LEVELS: ReadonlySet<unknown> = new Set(SARIF_LEVELS);
const KINDS: ReadonlySet<unknown> = new Set(RESULT_KINDS);
const BASELINE: ReadonlySet<unknown> = new Set(BASELINE_STATES);

function regionProblem(region: unknown): ResultWarningCode | undefined {
  if (absent(region)) return undefined;
  if (!isObject(region)) return 'result_location_invalid';
  return optionalLine(region.startLine) &&
    optionalLine(region.endLine) &&
    optionalLine(region.startColumn) &&
    optionalLine(region.endColumn)
    ? undefined
    : 'result_region_invalid';
}

/** The first location (the only one read): its shape, artifact reference and region. */
function locationProblem(location: JsonRecord): ResultWarningCode | undefined {
  const physical = location.physicalLocation;
  if (!optionalObject(physical) || !optionalArray(location.logicalLocations))
    return 'result_location_invalid';
  if (!optionalObject(location.properties)) return 'result_properties_invalid';
  if (!isObject(physical)) return undefined;
  const artifact = physical.artifactLocation;
  if (!optionalObject(artifact) || !optionalObject(physical.contextRegion))
    return 'result_location_invalid';
  if (
    isObject(artifact) &&
    !(
      optionalString(artifact.uri) &&
      optionalString(artifact.uriBaseId) &&
      optionalIndex(artifact.index)
    )
  ) {
    return 'result_location_invalid';
  }
  return regionProblem(physical.region);
}

/**
 * Why a SARIF 2.1.0 `result` cannot be stored, if it cannot: the members normalization reads
 * must have their SARIF type (enums within their values, line and column numbers positive
 * integers that fit `integer` columns; network ports and protocols are checked where they are
 * read, see resolveLocation). A few property checks per result; no schema engine (the parser
 * thread's budget is a few microseconds per result).
 */
export function sarifResultProblem(value: unknown): ResultWarningCode | undefined {
  if (!isObject(value)) return 'result_not_object';
  if (!absent(value.level) && !LEVELS.has(value.level)) return 'result_level_invalid';
  if (!absent(value.kind) && !KINDS.has(value.kind)) return 'result_kind_invalid';
  if (!absent(value.baselineState) && !BASELINE.has(value.baselineState))
    return 'result_baseline_state_invalid';
  if (
    !optionalString(value.ruleId) ||
    !optionalIndex(value.ruleIndex) ||
    !optionalObject(value.rule)
  ) {
    return 'result_rule_invalid';
  }
  if (!optionalObject(value.message)) return 'result_message_invalid';
  if (
    !optionalObject(value.properties) ||
    !optionalObject(value.fingerprints) ||
    !optionalObject(value.partialFingerprints)
  ) {
    return 'result_properties_invalid';
  }
  const locations = value.locations;
  if (!optionalArray(locations)) return 'result_location_invalid';
  const first = Array.isArray(locations) ? (locations[0] as unknown) : undefined;
  if (!absent(first) && !isObject(first)) return 'result_location_invalid';
  const location = isObject(first) ? first : undefined;
  return location && locationProblem(location);
}
