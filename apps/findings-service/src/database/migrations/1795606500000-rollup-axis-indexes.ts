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
 * a package, host or CVE cost nothing. Re-sightings change none of these columns (component
 * only from NULL, status only fixed -> renewed), so they stay HOT updates.
 */
export class RollupAxisIndexes1795606500000 implements MigrationInterface {
  name = 'RollupAxisIndexes1795606500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const shown = `"merged_into_id" IS NULL AND "suppression_rule_id" IS NULL`;
    for (const [name, column] of AXES) {
      await queryRunner.query(
        `CREATE INDEX "${name}" ON "findings" ("${column}", "severity", "status", "project_id") WHERE "${column}" <> '' AND ${shown}`,
      );
    }
    await queryRunner.query(
      `CREATE INDEX "ix_findings_rule_group" ON "findings" ("rule_id", "scanner", "project_id") WHERE ${shown}`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_findings_rule_group"`);
    for (const [name] of AXES) await queryRunner.query(`DROP INDEX "public"."${name}"`);
  }
}

const AXES = [
  ['ix_findings_component_rollup', 'component'],
  ['ix_findings_host_rollup', 'host'],
  ['ix_findings_cve_rollup', 'cve'],
] as const;
