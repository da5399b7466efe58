import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes of the group axes and inventory roll-ups (issue 28,
 * docs/findings-service/groups-and-rollups.md).
 *
 * One per roll-up axis, keyed by the axis value then severity, state and project: a roll-up
 * counts the visible selection per (key, severity, state, project), which with these is an
 * index-only scan in key order and a run-length count (no sort, no heap). No INCLUDE column,
 * so B-tree deduplication folds the ~30 000 distinct keys of 1 M findings into ~8 MB per index
 * (with `INCLUDE (product_id)`: 94 MB, and 2.5x slower). And one by rule (rule id, scanner,
 * project) for a finding's rule group: the four axes of GET /findings/{id}/group-axes are then
 * a BitmapOr of four index ranges (1 M findings: 470 ms of sequential scan -> 20 ms).
 *
 * Partial on what the lists show by default (not merged, not suppressed: selectionSql's
 * default conditions imply the predicate) and on the value being present, so findings without
 * a package, host or CVE cost nothing. `component`, `host` and `rule_id` are unbounded text
 * from reports and a B-tree entry holds at most 2 704 bytes: values longer than 2 000 bytes
 * (AXIS_INDEX_MAX_BYTES) stay out of these indexes — ingestion never fails on them — and get a
 * small index of their own (the project of each such finding); the queries name the side.
 * Re-sightings change none of these columns (component only from NULL, status only fixed ->
 * renewed), so they stay HOT updates.
 */
export class RollupAxisIndexes1795606500000 implements MigrationInterface {
  name = 'RollupAxisIndexes1795606500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const shown = `"merged_into_id" IS NULL AND "suppression_rule_id" IS NULL`;
    const short = (column: string) => `octet_length("${column}") <= 2000`;
    const long = (column: string) => `octet_length("${column}") > 2000`;
    for (const [name, column] of AXES) {
      const bounded = column === 'cve' ? '' : ` AND ${short(column)}`;
      await queryRunner.query(
        `CREATE INDEX "${name}" ON "findings" ("${column}", "severity", "status", "project_id") WHERE "${column}" <> ''${bounded} AND ${shown}`,
      );
    }
    await queryRunner.query(
      `CREATE INDEX "ix_findings_rule_group" ON "findings" ("rule_id", "scanner", "project_id") WHERE ${short('rule_id')} AND ${shown}`,
    );
    for (const [name, column] of LONG) {
      await queryRunner.query(
        `CREATE INDEX "${name}" ON "findings" ("project_id") WHERE ${long(column)} AND ${shown}`,
      );
      // Statistics of the length, so that `octet_length(x) <= 2000` is estimated as (nearly)
      // every row and not the default third: with the default the planner trades the
      // index-only scan for a bitmap heap scan of every row (200 000 findings: 62 -> 230 ms).
      await queryRunner.query(
        `CREATE STATISTICS "st_findings_${column}_length" ON (octet_length("${column}")) FROM "findings"`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name, column] of LONG) {
      await queryRunner.query(`DROP STATISTICS "public"."st_findings_${column}_length"`);
      await queryRunner.query(`DROP INDEX "public"."${name}"`);
    }
    await queryRunner.query(`DROP INDEX "public"."ix_findings_rule_group"`);
    for (const [name] of AXES) await queryRunner.query(`DROP INDEX "public"."${name}"`);
  }
}

const AXES = [
  ['ix_findings_component_rollup', 'component'],
  ['ix_findings_host_rollup', 'host'],
  ['ix_findings_cve_rollup', 'cve'],
] as const;

/** Values longer than the axis indexes hold (never `cve`, a varchar(64)). */
const LONG = [
  ['ix_findings_component_long', 'component'],
  ['ix_findings_host_long', 'host'],
  ['ix_findings_rule_id_long', 'rule_id'],
] as const;
