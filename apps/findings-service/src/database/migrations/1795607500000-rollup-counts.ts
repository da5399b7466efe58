import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Precomputed inventory roll-up counts (issue 28, docs/findings-service/groups-and-rollups.md
 * "Precomputed counts"): exact counts per (axis, key, project, severity, state) of the findings
 * the lists show by default (not merged, not suppressed). A counter's value is its row of
 * `finding_rollup_counts` (folded) plus the sum of its rows of `finding_rollup_deltas` (not yet
 * folded). The database keeps it on every write of `findings` (ingestion, re-sightings, every
 * status change, merge and unmerge, suppression, enrichment, deletes and cascades) with three
 * statement-level AFTER triggers over transition tables, which only APPEND the statement's net
 * delta (+1 per new row image, -1 per old one, per axis, summed per counter, zero sums left
 * out) to `finding_rollup_deltas` — no index but its key, no read of the counts, no lock: a
 * writer never waits on another for the counts and pays only its own delta's aggregation and
 * insert. `findings_rollup_fold()` moves the committed deltas into the counts (DELETE ...
 * RETURNING, summed, upserted) under a transaction-level advisory lock that it only tries (one
 * folder at a time, the others skip: nothing ever waits); the roll-up calls it before reading
 * and reads counts and deltas together, so a fold changes no answer.
 *
 * The first version (migration 1795606900000, removed in f8bd776) folded inside each trigger
 * (look-up, lock, delete and insert of every touched counter: ~40 us a counter, +70 % on a
 * 2 000-row insert) and joined the UPDATE's old and new images by a nested loop of old x new
 * rows in the ingestion transaction, which disables hash and merge joins (PREPARE_STAGE): the
 * 7-15x slower duplicate re-ingest (docs/benchmarks.md#rollup).
 *
 * PostgreSQL rules that shape it: a trigger with transition tables has one event (INSERT,
 * UPDATE and DELETE are three triggers; `INSERT ... ON CONFLICT DO UPDATE` fires the INSERT one
 * with the inserted rows and the UPDATE one with the updated rows), an UPDATE trigger with
 * transition tables has no column list (so every UPDATE of findings captures its rows; in the
 * UPDATE function only the rows whose counted columns changed are counted, and a statement with
 * no net change writes nothing), and TRUNCATE has no transition
 * tables (nothing truncates findings; a TRUNCATE would have to clear both tables).
 *
 * Keys longer than 2 000 bytes (AXIS_INDEX_MAX_BYTES) are not counted here — the index could
 * not hold them — the roll-up counts them from findings, as before. No foreign key to
 * projects: a project's deletion cascades to its findings, whose DELETE trigger writes the
 * project's -1s; a foreign key would refuse them once the project row is gone.
 */
export class RollupCounts1795607500000 implements MigrationInterface {
  name = 'RollupCounts1795607500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const columns = `"axis" character varying(8) NOT NULL, "key" text NOT NULL, "project_id" uuid NOT NULL, "severity" character varying(8) NOT NULL, "status" character varying(16) NOT NULL, "n" integer NOT NULL`;
    await queryRunner.query(
      `CREATE TABLE "finding_rollup_counts" ("id" BIGSERIAL NOT NULL, ${columns}, CONSTRAINT "PK_finding_rollup_counts_id" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ix_finding_rollup_counts_counter" ON "finding_rollup_counts" ("axis", "key", "project_id", "severity", "status") `,
    );
    await queryRunner.query(
      `CREATE TABLE "finding_rollup_deltas" ("id" BIGSERIAL NOT NULL, ${columns}, CONSTRAINT "PK_finding_rollup_deltas_id" PRIMARY KEY ("id"))`,
    );
    // Writers wait while the counts are filled, so that none is missed or counted twice.
    await queryRunner.query(`LOCK TABLE "findings" IN SHARE ROW EXCLUSIVE MODE`);
    await queryRunner.query(`INSERT INTO "finding_rollup_counts" ("axis", "key", "project_id", "severity", "status", "n")
      SELECT * FROM (${deltaSelect(`SELECT f.*, 1 AS d FROM findings f`)}) d`);
    await queryRunner.query(fn('insert', `SELECT r.*, 1 AS d FROM rollup_new r`));
    await queryRunner.query(fn('delete', `SELECT r.*, -1 AS d FROM rollup_old r`));
    // An UPDATE captures every updated row (re-sightings: every row of a report); only the rows
    // whose counted columns changed are counted, -1 for the old image and +1 for the new one.
    // The old and new images are joined by a hash join, which the function turns on for its
    // statement: the ingestion transaction turns hash and merge joins off (PREPARE_STAGE), and
    // the join of the two transition tables (no index) was then a nested loop over old x new
    // rows — the 7-15x slower duplicate re-ingest of the first version. Joining first (rather
    // than summing both images) leaves a re-sighting only the join: no row reaches the sums.
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
        'SET enable_hashjoin = on',
      ),
    );
    await queryRunner.query(FOLD);
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
    await queryRunner.query(`DROP FUNCTION findings_rollup_fold()`);
    await queryRunner.query(`DROP TABLE "finding_rollup_deltas"`);
    await queryRunner.query(`DROP TABLE "finding_rollup_counts"`);
  }
}

/**
 * Counters of a set of row images (`rows`: findings columns and `d`, +1 or -1): one per axis
 * whose key is present and at most 2 000 bytes, for the rows the lists show by default;
 * summed (grouped in byte order: the same groups, without locale comparisons), zero sums
 * dropped.
 */
function deltaSelect(rows: string): string {
  return `SELECT a.axis, a.key, r.project_id, r.severity, r.status, sum(r.d)::int AS n
      FROM (${rows}) r
      CROSS JOIN LATERAL (VALUES ('package', r.component COLLATE "C"), ('host', r.host COLLATE "C"),
        ('cve', r.cve::text COLLATE "C")) a(axis, key)
      WHERE r.merged_into_id IS NULL AND r.suppression_rule_id IS NULL
        AND a.key <> '' AND octet_length(a.key) <= 2000
      GROUP BY 1, 2, 3, 4, 5
      HAVING sum(r.d) <> 0`;
}

/**
 * The trigger function of one event: the statement's net delta appended to
 * `finding_rollup_deltas` (nothing when it is empty). Run with EXECUTE, so planned at each call
 * with the transition tables' real sizes (a static statement's plan is cached for the session).
 */
function fn(event: string, rows: string, settings = ''): string {
  return `CREATE FUNCTION findings_rollup_${event}() RETURNS trigger LANGUAGE plpgsql ${settings} AS $$
    BEGIN
      EXECUTE $q$
      INSERT INTO finding_rollup_deltas (axis, key, project_id, severity, status, n)
      ${deltaSelect(rows)}
      $q$;
      RETURN NULL;
    END $$`;
}

/**
 * Moves the committed deltas into the counts, when no other session is folding (the advisory
 * lock is only tried: nobody waits; a delta of a transaction still open is not visible and stays
 * for a later fold). A counter that reaches 0 keeps its row at 0 (a finding may come back).
 */
const FOLD = `CREATE FUNCTION findings_rollup_fold() RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM finding_rollup_deltas)
        OR NOT pg_try_advisory_xact_lock(hashtextextended('finding-rollup-fold', 0)) THEN
        RETURN;
      END IF;
      WITH moved AS (
        DELETE FROM finding_rollup_deltas RETURNING axis, key, project_id, severity, status, n
      )
      INSERT INTO finding_rollup_counts AS c (axis, key, project_id, severity, status, n)
      SELECT axis, key, project_id, severity, status, sum(n)::int FROM moved
      GROUP BY 1, 2, 3, 4, 5
      HAVING sum(n) <> 0
      ON CONFLICT (axis, key, project_id, severity, status) DO UPDATE SET n = c.n + EXCLUDED.n;
    END $$`;
