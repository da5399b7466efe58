/**
 * Axes of finding groups (docs/findings-service/groups-and-rollups.md): same package
 * (component name, every version), same host, same CVE, same rule (scanner + rule id).
 * Roll-ups group by the first three.
 */
export const GROUP_AXES = ['package', 'host', 'cve', 'rule'] as const;
export type GroupAxis = (typeof GROUP_AXES)[number];
export const ROLLUP_AXES = ['package', 'host', 'cve'] as const;
export type RollupAxis = (typeof ROLLUP_AXES)[number];

/** The column a roll-up axis is keyed by (exact values; NULL/empty never forms a row). */
export const ROLLUP_KEY_SQL: Record<RollupAxis, string> = {
  package: 'f.component',
  host: 'f.host',
  cve: 'f.cve',
};

/**
 * Longest value, in bytes, that the axis indexes hold (migration 1795606500000): a B-tree
 * entry is at most 2 704 bytes, and `component`, `host` and `rule_id` are unbounded text from
 * reports — an index over them would make ingestion fail on a longer value. Longer values are
 * left out of those indexes (each has a small index of its own) and every query names which
 * side it reads, with this literal, so the planner can prove the partial index applies.
 */
export const AXIS_INDEX_MAX_BYTES = 2000;

/** Whether a column's values may be longer than the indexes hold (`cve` is varchar(64)). */
export const UNBOUNDED_KEY: Record<RollupAxis, boolean> = { package: true, host: true, cve: false };

/** `octet_length(column)` on the indexed side (short) or the other (long). */
export function keyLengthSql(column: string, long: boolean): string {
  return `octet_length(${column}) ${long ? '>' : '<='} ${AXIS_INDEX_MAX_BYTES}`;
}

const isLong = (value: string): boolean => Buffer.byteLength(value, 'utf8') > AXIS_INDEX_MAX_BYTES;

/** "Same value on one axis": a roll-up row's key, or a rule (scanner + rule id). */
export type AxisMatch =
  { axis: RollupAxis; key: string } | { axis: 'rule'; scanner: string; ruleId: string };

/**
 * The condition of an axis match over `findings f`; every value a parameter (`params` is the
 * statement's SqlParams, named by its shape: this file imports nothing, the list's selection
 * imports it). Equal values have equal lengths, so the length condition changes nothing but
 * lets the planner use the index of the value's side.
 */
export function axisMatchSql(match: AxisMatch, params: { add(value: unknown): string }): string {
  if (match.axis === 'rule') {
    return `(f.scanner = ${params.add(match.scanner)}::text AND f.rule_id = ${params.add(match.ruleId)}::text AND ${keyLengthSql('f.rule_id', isLong(match.ruleId))})`;
  }
  const column = ROLLUP_KEY_SQL[match.axis];
  const equal = `${column} = ${params.add(match.key)}::text`;
  return UNBOUNDED_KEY[match.axis]
    ? `(${equal} AND ${keyLengthSql(column, isLong(match.key))})`
    : equal;
}

export function isGroupAxis(value: unknown): value is GroupAxis {
  return (GROUP_AXES as readonly unknown[]).includes(value);
}
