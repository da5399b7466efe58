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

/** "Same value on one axis": a roll-up row's key, or a rule (scanner + rule id). */
export type AxisMatch =
  { axis: RollupAxis; key: string } | { axis: 'rule'; scanner: string; ruleId: string };

/**
 * The condition of an axis match over `findings f`; every value a parameter (`params` is the
 * statement's SqlParams, named by its shape: this file imports nothing, the list's selection
 * imports it).
 */
export function axisMatchSql(match: AxisMatch, params: { add(value: unknown): string }): string {
  if (match.axis === 'rule') {
    return `(f.scanner = ${params.add(match.scanner)}::text AND f.rule_id = ${params.add(match.ruleId)}::text)`;
  }
  return `${ROLLUP_KEY_SQL[match.axis]} = ${params.add(match.key)}::text`;
}

export function isGroupAxis(value: unknown): value is GroupAxis {
  return (GROUP_AXES as readonly unknown[]).includes(value);
}
