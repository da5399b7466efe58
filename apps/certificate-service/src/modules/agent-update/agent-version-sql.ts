import { AGENT_VERSION_PATTERN } from '../../app/domain/agent-version';

/** A version as SQL can compare it: four numeric parts (missing = 0) and the pre-release flag. */
export interface ComparableVersion {
  readonly parts: readonly [number, number, number, number];
  readonly preRelease: boolean;
}

/** Null when `version` is not an agent version (AGENT_VERSION_PATTERN). */
export function comparableVersion(version: string): ComparableVersion | null {
  if (!AGENT_VERSION_PATTERN.test(version)) return null;
  const withoutBuild = version.split('+', 1)[0];
  const core = withoutBuild.split('-', 1)[0].split('.').map(Number);
  while (core.length < 4) core.push(0);
  return {
    parts: [core[0], core[1], core[2], core[3]],
    preRelease: withoutBuild.includes('-'),
  };
}

/** The same pattern in PostgreSQL regex syntax (no look-ahead: length checked apart). */
const SQL_PATTERN = '^[0-9]{1,9}(\\.[0-9]{1,9}){0,3}([-+][0-9A-Za-z.-]{1,40})?$';

/**
 * SQL condition "the agent version in `column` is missing, not a version, or below the floor"
 * with the floor as parameters `$parts` (int[4]) and `$pre` (boolean), numbered from `first`.
 * Compares like `compareAgentVersions`: numeric parts, then a pre-release below its release.
 */
export function belowFloorSql(column: string, first: number): string {
  const parts = `$${first}::int[]`;
  const pre = `$${first + 1}::boolean`;
  const core = `split_part(split_part(${column}, '+', 1), '-', 1)`;
  const padded = `((string_to_array(${core}, '.')::int[] || ARRAY[0,0,0,0])[1:4])`;
  const isPre = `(strpos(split_part(${column}, '+', 1), '-') > 0)`;
  const valid = `(${column} ~ '${SQL_PATTERN}' AND length(${column}) <= 64)`;
  // CASE: the casts run only on values that are versions.
  return `(${column} IS NULL OR CASE WHEN ${valid} THEN
    (${padded} < ${parts} OR (${padded} = ${parts} AND ${isPre} AND NOT ${pre})) ELSE true END)`;
}
