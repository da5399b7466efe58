import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Precomputed inventory roll-up counts (issue 28, docs/findings-service/groups-and-rollups.md
 * "Precomputed counts"): `finding_rollup_counts` holds signed counts per (axis, key, project,
 * severity, state) of the findings the lists show by default (not merged, not suppressed); a
 * counter's value is the sum of its rows. The database keeps it on every write of `findings`
 * (ingestion, re-sightings, every status change, merge and unmerge, suppression, enrichment,
 * deletes and cascades) with three statement-level AFTER triggers over transition tables: the
 * statement's delta (+1 per new row image, -1 per old one, per axis), summed per counter.
 *
 * Writers never wait on each other for it: the delta is appended (INSERT, no unique key, so no
 * conflict and no lock another writer could hold), and in the same statement the rows of the
 * touched counters that no other transaction holds (`FOR UPDATE SKIP LOCKED`) are folded into
 * one. A counter thus stays at about one row, and no lock is ever awaited — two ingestions and
 * a bulk status on the same project cannot deadlock on the counts, nor drift (each delete and
 * its folded row commit together).
 *
 * PostgreSQL rules that shape it: a trigger with transition tables has one event (INSERT,
 * UPDATE and DELETE are three triggers; `INSERT ... ON CONFLICT DO UPDATE` fires the INSERT one
 * with the inserted rows and the UPDATE one with the updated rows), an UPDATE trigger with
 * transition tables has no column list (so every UPDATE of findings captures its rows; the
 * UPDATE function keeps only the rows whose counted columns changed), and TRUNCATE has no
 * transition tables (nothing truncates findings; a TRUNCATE would have to clear this table).
 *
 * Keys longer than 2 000 bytes (AXIS_INDEX_MAX_BYTES) are not counted here — the index could
 * not hold them — the roll-up counts them from findings, as before. No foreign key to
 * projects: a project's deletion cascades to its findings, whose DELETE trigger writes the
 * project's -1s; a foreign key would refuse them once the project row is gone.
 */
export class RollupCounts1795606900000 implements MigrationInterface {
  name = 'RollupCounts1795606900000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "finding_rollup_counts" ("id" BIGSERIAL NOT NULL, "axis" character varying(8) NOT NULL, "key" text NOT NULL, "project_id" uuid NOT NULL, "severity" character varying(8) NOT NULL, "status" character varying(16) NOT NULL, "n" integer NOT NULL, CONSTRAINT "PK_finding_rollup_counts_id" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_finding_rollup_counts_counter" ON "finding_rollup_counts" ("axis", "key", "project_id", "severity", "status") `,
    );
    // Writers wait while the counts are filled, so that none is missed or counted twice.
    await queryRunner.query(`LOCK TABLE "findings" IN SHARE ROW EXCLUSIVE MODE`);
    await queryRunner.query(`INSERT INTO "finding_rollup_counts" ("axis", "key", "project_id", "severity", "status", "n")
      SELECT * FROM (${deltaSelect(`SELECT f.*, 1 AS d FROM findings f`)}) d`);
    await queryRunner.query(fn('insert', `SELECT r.*, 1 AS d FROM rollup_new r`));
    await queryRunner.query(fn('delete', `SELECT r.*, -1 AS d FROM rollup_old r`));
    // An UPDATE captures every updated row (re-sightings: every row of a report); only those
    // whose counted columns changed are counted, as -1 for the old image and +1 for the new.
    await queryRunner.query(
      fn(
        'update',
        `SELECT x.* FROM rollup_old o JOIN rollup_new n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES
          (o.project_id, o.severity, o.status, o.component, o.host, o.cve, o.merged_into_id, o.suppression_rule_id, -1),
          (n.project_id, n.severity, n.status, n.component, n.host, n.cve, n.merged_into_id, n.suppression_rule_id, 1)
        ) x(project_id, severity, status, component, host, cve, merged_into_id, suppression_rule_id, d)
        WHERE (o.project_id, o.severity, o.status, o.component, o.host, o.cve, o.merged_into_id IS NULL, o.suppression_rule_id IS NULL)
          IS DISTINCT FROM (n.project_id, n.severity, n.status, n.component, n.host, n.cve, n.merged_into_id IS NULL, n.suppression_rule_id IS NULL)`,
      ),
    );
    const referencing = {
      insert: 'NEW TABLE AS rollup_new',
      delete: 'OLD TABLE AS rollup_old',
      update: 'OLD TABLE AS rollup_old NEW TABLE AS rollup_new',
    };
    for (const [event, ref] of Object.entries(referencing)) {
      await queryRunner.query(
        `CREATE TRIGGER "tr_findings_rollup_${event}" AFTER ${event.toUpperCase()} ON "findings" REFERENCING ${ref} FOR EACH STATEMENT EXECUTE FUNCTION findings_rollup_${event}()`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const event of ['insert', 'update', 'delete']) {
      await queryRunner.query(`DROP TRIGGER "tr_findings_rollup_${event}" ON "findings"`);
      await queryRunner.query(`DROP FUNCTION findings_rollup_${event}()`);
    }
    await queryRunner.query(`DROP TABLE "finding_rollup_counts"`);
  }
}

/**
 * Counters of a set of row images (`rows`: findings columns and `d`, +1 or -1): one per axis
 * whose key is present and at most 2 000 bytes, for the rows the lists show by default;
 * summed, zero sums dropped.
 */
function deltaSelect(rows: string): string {
  return `SELECT a.axis, a.key, r.project_id, r.severity, r.status, sum(r.d)::int AS n
      FROM (${rows}) r
      CROSS JOIN LATERAL (VALUES ('package', r.component), ('host', r.host), ('cve', r.cve::text)) a(axis, key)
      WHERE r.merged_into_id IS NULL AND r.suppression_rule_id IS NULL
        AND a.key <> '' AND octet_length(a.key) <= 2000
      GROUP BY 1, 2, 3, 4, 5
      HAVING sum(r.d) <> 0`;
}

/**
 * The trigger function of one event: the delta, plus the rows of the touched counters that no
 * other transaction holds (taken and deleted), appended summed as one row per counter (a
 * counter summing to 0 leaves no row). Nothing here waits for a lock.
 *
 * Run with EXECUTE, so planned at each call with the transition tables' real sizes: a static
 * statement's plan is cached for the session, made with the sizes of its first call — a
 * one-row UPDATE then left a nested loop of old x new rows for the next 10 000-row batch (a
 * 100 000-result re-ingest took 53 s instead of 7.5 s).
 */
function fn(event: string, rows: string): string {
  return `CREATE FUNCTION findings_rollup_${event}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      EXECUTE $q$
      WITH delta AS MATERIALIZED (${deltaSelect(rows)}),
      held AS (
        SELECT c.id FROM finding_rollup_counts c
        JOIN delta d ON (c.axis, c.key, c.project_id, c.severity, c.status)
                      = (d.axis, d.key, d.project_id, d.severity, d.status)
        FOR UPDATE OF c SKIP LOCKED
      ),
      folded AS (
        DELETE FROM finding_rollup_counts c USING held h WHERE c.id = h.id
        RETURNING c.axis, c.key, c.project_id, c.severity, c.status, c.n
      )
      INSERT INTO finding_rollup_counts (axis, key, project_id, severity, status, n)
      SELECT axis, key, project_id, severity, status, sum(n)::int
      FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) x
      GROUP BY 1, 2, 3, 4, 5
      HAVING sum(n) <> 0
      $q$;
      RETURN NULL;
    END $$`;
}
