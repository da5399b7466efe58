import type { Client } from 'pg';
import {
  PREPARE_STAGE,
  RESIGHTED_STAGE,
  TOUCH,
} from '../../src/modules/findings/bulk-write/findings-bulk-write.sql';
import { freshProduct, type Product } from '../support/findings-seed';
import { withDb } from '../support/findings-db';
import { loginAdmin } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The plan of the unchanged re-sightings' update (TOUCH, findings-bulk-write.sql.ts) right after
 * a first ingest: the product's findings are in the table but not in its statistics, so the
 * planner takes the product for 1 row. The update must still go by primary key from the staged
 * ids; a walk of the product's findings compared with every staged row made a 100 000-result
 * re-ingest take 60 s instead of 2 (docs/benchmarks.md, issue 28).
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

async function insertFindings(db: Client, p: Product, count: number): Promise<void> {
  await db.query(
    `INSERT INTO findings (product_id, project_id, identity_hash, identity_kind, rule_id, title,
        description, severity, scanner, first_seen_at, last_seen_at, content_digest)
     SELECT $1::uuid, $2::uuid, md5(i::text || $1::text) || md5($1::text || i::text), 'location', 'rule-' || (i % 50),
        'finding ' || i, 'seeded', 'MEDIUM', 'seed-scanner', now(), now(), gen_random_uuid()
       FROM generate_series(1, $3::int) AS i`,
    [p.id, p.project_id, count],
  );
}

describe('Re-sighting by content digest - the TOUCH plan with stale statistics', () => {
  it('updates by primary key, not by a walk of the product the statistics do not know', async () => {
    const admin = await loginAdmin(t);
    const known = await freshProduct(t, admin);
    const fresh = await freshProduct(t, admin, known.project_id);
    const plan = await withDb(t, async (db) => {
      await insertFindings(db, known, 5_000);
      await db.query('ANALYZE findings');
      await insertFindings(db, fresh, 20_000);
      await db.query('BEGIN');
      try {
        await db.query(PREPARE_STAGE);
        await db.query(
          `INSERT INTO ${RESIGHTED_STAGE} SELECT id, content_digest FROM findings
            WHERE product_id = $1 LIMIT 2000`,
          [fresh.id],
        );
        const res = await db.query(`EXPLAIN ${TOUCH}`, [
          fresh.id,
          fresh.project_id,
          new Date(),
          '00000000-0000-4000-8000-000000000001',
          '1.0',
          null,
        ]);
        return res.rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
      } finally {
        await db.query('ROLLBACK');
      }
    });
    const update = plan.slice(plan.indexOf('Update on findings'));
    expect(update).toMatch(/Index Scan using "?PK_\w+"? on findings f/);
    expect(update).not.toMatch(/ix_findings_product_id_id on findings f\b/);
  });

  it('keeps that plan as the generic plan of the prepared statement the worker runs', async () => {
    const admin = await loginAdmin(t);
    const fresh = await freshProduct(t, admin);
    const plan = await withDb(t, async (db) => {
      await insertFindings(db, fresh, 20_000);
      await db.query('BEGIN');
      try {
        await db.query(PREPARE_STAGE);
        await db.query('SET LOCAL plan_cache_mode = force_generic_plan');
        await db.query(
          `INSERT INTO ${RESIGHTED_STAGE} SELECT id, content_digest FROM findings
            WHERE product_id = $1 LIMIT 2000`,
          [fresh.id],
        );
        await db.query(`PREPARE touch_generic AS ${TOUCH}`);
        // EXECUTE takes no bind parameters: the ids (uuids from the database) inline.
        const res = await db.query(
          `EXPLAIN EXECUTE touch_generic('${fresh.id}', '${fresh.project_id}', now(),
             '00000000-0000-4000-8000-000000000001', '1.0', NULL)`,
        );
        return res.rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
      } finally {
        await db.query('ROLLBACK');
        await db.query('DEALLOCATE ALL');
      }
    });
    const update = plan.slice(plan.indexOf('Update on findings'));
    expect(update).toMatch(/Index Scan using "?PK_\w+"? on findings f/);
    expect(update).not.toMatch(/ix_findings_product_id_id on findings f\b/);
  });
});
